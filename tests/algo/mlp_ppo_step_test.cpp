// PPO's minibatch step by hand (algo/mlp_ppo_step.hpp): its loss and the
// loss's gradient against algo::ppo_loss under LibTorch's autograd, and a
// learner training by hand against one training by LibTorch, batch after
// batch.
#include <doctest/doctest.h>

#include <random>

#include "algo/learner.hpp"
#include "algo/mlp_ppo_step.hpp"
#include "algo/policy_distribution.hpp"
#include "algo/ppo_loss.hpp"
#include "algo/sampling.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/algo/ppo_algo_config.hpp"
#include "tests/algo/policy_rollout.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;

namespace {

struct loss_case {
  const char* name;
  bool gaussian;
  bool masked;
  double value_clip;
  double entropy_coef;
  bool normalize;
};

// The loss's inputs, drawn so that some ratios fall outside the clip on
// both sides and some value changes beyond the value clip.
struct loss_inputs {
  int n = 48, w = 4;
  torch::Tensor policy, log_std, values, actions, legal, behaviour, old_values, advantages, returns;
  explicit loss_inputs(const loss_case& c) {
    torch::manual_seed(3);
    policy = torch::randn({n, w});
    log_std = torch::randn({w}) * 0.3;
    values = torch::randn({n});
    if (c.gaussian) {
      actions = policy + torch::randn({n, w}) * log_std.exp();
    } else {
      legal = torch::rand({n, w}) > 0.3;
      legal.select(1, 1).fill_(true);  // one legal action in every row at least
      if (!c.masked) legal.fill_(true);
      // A legal action per row: the first legal one from a random start.
      std::vector<float> a(static_cast<size_t>(n), 0.0f);
      std::mt19937 rng(4);
      for (int i = 0; i < n; ++i)
        for (int k = 0, j = int(rng() % w);; ++k, j = (j + 1) % w)
          if (legal[i][j].item<bool>()) {
            a[size_t(i)] = float(j);
            break;
          }
      actions = torch::tensor(a);
    }
    behaviour = terms(policy).logp.detach() + torch::randn({n}) * 0.4;
    old_values = values + torch::randn({n}) * 0.3;
    advantages = torch::randn({n}) * 2 + 0.5;
    returns = values + torch::randn({n});
  }
  bool gaussian() const { return !legal.defined(); }
  algo::policy_terms terms(const torch::Tensor& p) const {
    if (gaussian()) return algo::gaussian_terms(p, log_std, actions);
    return algo::categorical_terms(p, actions.to(torch::kInt64), legal);
  }
};

// With every term of the loss: an entropy bonus, value clipping, gradient clipping.
algo::algo_config full_loss_config(int epochs, int minibatches) {
  algo::algo_config c = tests::ppo_algo_config(epochs, minibatches);
  c.lr = 0.003;
  c.entropy_coef = 0.01;
  c.max_grad_norm = 0.5;
  c.ppo.value_clip = 0.2;
  return c;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("PPO by hand: the loss and its gradient by the network's outputs are algo::ppo_loss's under autograd") {
  const loss_case cases[] = {
      {"categorical, no masks, no value clip", false, false, 0.0, 0.0, true},
      {"categorical, masked, value clip, entropy bonus", false, true, 0.2, 0.05, true},
      {"categorical, masked, advantages as they are", false, true, 0.2, 0.01, false},
      {"Gaussian, value clip, entropy bonus", true, false, 0.2, 0.03, true},
      {"Gaussian, no value clip", true, false, 0.0, 0.0, true},
  };
  for (const loss_case& c : cases) {
    CAPTURE(c.name);
    const loss_inputs in(c);
    algo::ppo_loss_settings s;
    s.clip = 0.2;
    s.value_clip = c.value_clip;
    s.value_coef = 0.5;
    s.entropy_coef = c.entropy_coef;
    s.normalize_advantages = c.normalize;

    const torch::Tensor policy = in.policy.clone().requires_grad_(true);
    const torch::Tensor log_std = in.log_std.clone().requires_grad_(true);
    const torch::Tensor values = in.values.clone().requires_grad_(true);
    algo::policy_terms t = c.gaussian ? algo::gaussian_terms(policy, log_std, in.actions)
                                      : algo::categorical_terms(policy, in.actions.to(torch::kInt64), in.legal);
    const algo::ppo_loss_terms expected =
        algo::ppo_loss(t.logp, t.entropy, values, in.behaviour, in.old_values, in.advantages, in.returns, s);
    expected.total.backward();

    const torch::Tensor legal_bytes = c.gaussian ? torch::Tensor() : in.legal.to(torch::kUInt8).contiguous();
    algo::ppo_minibatch_view view;
    view.n = in.n;
    view.gaussian = c.gaussian;
    view.width = in.w;
    view.policy = in.policy.data_ptr<float>();
    view.log_std = in.log_std.data_ptr<float>();
    view.values = in.values.data_ptr<float>();
    view.actions = in.actions.data_ptr<float>();
    view.legal = c.masked ? legal_bytes.data_ptr<std::uint8_t>() : nullptr;
    view.behaviour_logp = in.behaviour.data_ptr<float>();
    view.old_values = in.old_values.data_ptr<float>();
    view.advantages = in.advantages.data_ptr<float>();
    view.returns = in.returns.data_ptr<float>();
    algo::ppo_loss_by_hand mine;
    algo::ppo_loss_and_gradient(view, s, mine);

    // The inputs reach both sides of the clip, so the branches are tried.
    CHECK(expected.clip_fraction > 0.1);
    CHECK(expected.clip_fraction < 0.9);
    CHECK(mine.total == doctest::Approx(expected.total.item<double>()).epsilon(1e-5));
    CHECK(mine.policy == doctest::Approx(expected.policy.item<double>()).epsilon(1e-5));
    CHECK(mine.value == doctest::Approx(expected.value.item<double>()).epsilon(1e-5));
    CHECK(mine.entropy == doctest::Approx(expected.entropy.item<double>()).epsilon(1e-5));
    CHECK(mine.approx_kl == doctest::Approx(expected.approx_kl).epsilon(1e-5));
    CHECK(mine.clip_fraction == doctest::Approx(expected.clip_fraction));
    const torch::Tensor d_policy = torch::from_blob(mine.d_policy.data(), {in.n, in.w});
    const torch::Tensor d_values = torch::from_blob(mine.d_values.data(), {in.n});
    CHECK(torch::allclose(d_policy, policy.grad(), 1e-5, 1e-6));
    CHECK(torch::allclose(d_values, values.grad(), 1e-5, 1e-6));
    if (c.gaussian) {
      const torch::Tensor d_log_std = torch::from_blob(mine.d_log_std.data(), {in.w});
      CHECK(torch::allclose(d_log_std, log_std.grad(), 1e-5, 1e-6));
    }
  }
}

TEST_CASE("PPO by hand: a learner trains the same parameters batch after batch as one on LibTorch's autograd") {
  struct network {
    const char* name;
    model::net_spec spec;
  };
  model::net_spec gaussian = model::mlp_spec(5, 3, {32, 32});
  gaussian.continuous = true;
  gaussian.shared_trunk = false;
  gaussian.normalize.observation = true;
  model::net_spec categorical = model::mlp_spec(5, 4, {16});
  categorical.activation = "relu";
  for (const network& net : {network{"Gaussian, own value trunk, normalised observations", gaussian},
                             network{"masked categorical, relu, shared trunk", categorical}}) {
    CAPTURE(net.name);
    model::net_spec torch_spec = net.spec;
    torch_spec.by_hand = false;
    auto by_hand_model = model::make_shared_model(net.spec, 9);
    auto torch_model = model::make_shared_model(torch_spec, 9);
    algo::learner_config config{full_loss_config(3, 4), {}, 0, 1};
    config.normalize = net.spec.normalize;
    algo::learner by_hand(by_hand_model, config);
    algo::learner reference(torch_model, config);
    REQUIRE(by_hand.trains_by_hand());
    REQUIRE_FALSE(reference.trains_by_hand());
    for (int b = 0; b < 4; ++b) {
      CAPTURE(b);
      const algo::rollout r = tests::policy_rollout(*torch_model, 16, 4, std::uint64_t(b), 100 + std::uint64_t(b), 0.1f);
      const algo::train_result x = by_hand.train_one(r);
      const algo::train_result y = reference.train_one(r);
      CHECK(x.updates == 12);
      CHECK(y.updates == 12);
      CHECK(x.loss == doctest::Approx(y.loss).epsilon(1e-4));
      CHECK(x.entropy == doctest::Approx(y.entropy).epsilon(1e-4));
      CHECK(x.clip_fraction == doctest::Approx(y.clip_fraction).epsilon(1e-3));
      CHECK(torch::allclose(by_hand_model->flat, torch_model->flat, 1e-4, 1e-4));
    }
    // Learning moved them: the comparison is not of two untouched copies.
    CHECK_FALSE(torch::allclose(by_hand_model->flat, model::make_shared_model(net.spec, 9)->flat, 1e-3, 1e-3));
  }
}

TEST_CASE("PPO by hand: declined for policies it does not compute") {
  model::net_spec multi = model::mlp_spec(4, 5, {8});
  multi.action_heads = {2, 3};
  CHECK(algo::mlp_ppo_step::for_model(*model::make_shared_model(multi, 1)) == nullptr);
  CHECK(algo::mlp_ppo_step::for_model(*model::make_shared_model(model::mlp_spec(4, 5, {8}), 1)) != nullptr);
}
}
