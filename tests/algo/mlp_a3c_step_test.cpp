// A3C's update by hand (algo/mlp_a3c_step.hpp): its loss and the loss's
// gradient against algo::a3c_loss under LibTorch's autograd, and a learner
// training by hand against one training by LibTorch, batch after batch,
// with and without V-trace, with truncated episodes, RMSprop and Adam.
#include <doctest/doctest.h>

#include "algo/a3c_loss.hpp"
#include "algo/a3c_loss_by_hand.hpp"
#include "algo/learner.hpp"
#include "algo/mlp_a3c_step.hpp"
#include "algo/policy_distribution.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/algo/policy_rollout.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;

TEST_SUITE("algo") {
TEST_CASE("A3C by hand: the loss and its gradient by the network's outputs are algo::a3c_loss's under autograd") {
  struct loss_case {
    const char* name;
    bool gaussian, masked;
    double entropy_coef;
  };
  for (const loss_case& c : {loss_case{"categorical", false, false, 0.0}, loss_case{"masked categorical, entropy bonus", false, true, 0.05},
                             loss_case{"Gaussian, entropy bonus", true, false, 0.03}}) {
    CAPTURE(c.name);
    const int n = 40, w = 3;
    torch::manual_seed(5);
    const torch::Tensor policy_in = torch::randn({n, w}), log_std_in = torch::randn({w}) * 0.3,
                        values_in = torch::randn({n});
    torch::Tensor actions, legal;
    if (c.gaussian) {
      actions = policy_in + torch::randn({n, w}) * log_std_in.exp();
    } else {
      legal = torch::rand({n, w}) > 0.3;
      legal.select(1, 0).fill_(true);
      if (!c.masked) legal.fill_(true);
      actions = torch::zeros({n});  // action 0, always legal, and the others where legal
      for (int i = 0; i < n; ++i)
        if (legal[i][i % w].item<bool>()) actions[i] = float(i % w);
    }
    const torch::Tensor advantages = torch::randn({n}) * 2 + 0.3, returns = values_in + torch::randn({n});

    const torch::Tensor policy = policy_in.clone().requires_grad_(true);
    const torch::Tensor log_std = log_std_in.clone().requires_grad_(true);
    const torch::Tensor values = values_in.clone().requires_grad_(true);
    const algo::policy_terms t = c.gaussian ? algo::gaussian_terms(policy, log_std, actions)
                                            : algo::categorical_terms(policy, actions.to(torch::kInt64), legal);
    const algo::a3c_loss_terms expected = algo::a3c_loss(t.logp, t.entropy, values, advantages, returns, 0.5, c.entropy_coef);
    expected.total.backward();

    const torch::Tensor legal_bytes = c.gaussian ? torch::Tensor() : legal.to(torch::kUInt8).contiguous();
    algo::a3c_batch_view view;
    view.n = n;
    view.gaussian = c.gaussian;
    view.width = w;
    view.policy = policy_in.data_ptr<float>();
    view.log_std = log_std_in.data_ptr<float>();
    view.values = values_in.data_ptr<float>();
    view.actions = actions.data_ptr<float>();
    view.legal = c.masked ? legal_bytes.data_ptr<std::uint8_t>() : nullptr;
    view.advantages = advantages.data_ptr<float>();
    view.returns = returns.data_ptr<float>();
    algo::a3c_loss_by_hand mine;
    algo::a3c_loss_and_gradient(view, 0.5, c.entropy_coef, mine);

    CHECK(mine.total == doctest::Approx(expected.total.item<double>()).epsilon(1e-5));
    CHECK(mine.policy == doctest::Approx(expected.policy.item<double>()).epsilon(1e-5));
    CHECK(mine.value == doctest::Approx(expected.value.item<double>()).epsilon(1e-5));
    CHECK(mine.entropy == doctest::Approx(expected.entropy.item<double>()).epsilon(1e-5));
    CHECK(torch::allclose(torch::from_blob(mine.logp.data(), {n}), t.logp.detach(), 1e-5, 1e-6));
    CHECK(torch::allclose(torch::from_blob(mine.d_policy.data(), {n, w}), policy.grad(), 1e-5, 1e-6));
    CHECK(torch::allclose(torch::from_blob(mine.d_values.data(), {n}), values.grad(), 1e-5, 1e-6));
    if (c.gaussian) CHECK(torch::allclose(torch::from_blob(mine.d_log_std.data(), {w}), log_std.grad(), 1e-5, 1e-6));
  }
}

TEST_CASE("A3C by hand: a learner trains the same parameters batch after batch as one on LibTorch's autograd") {
  struct network {
    const char* name;
    model::net_spec spec;
    algo::correction_kind correction;
    algo::optimizer_kind optimizer;
  };
  model::net_spec gaussian = model::mlp_spec(5, 3, {32, 32});
  gaussian.continuous = true;
  gaussian.shared_trunk = false;
  gaussian.normalize.observation = true;
  gaussian.log_std_init = -0.5;
  model::net_spec categorical = model::mlp_spec(5, 4, {16});
  categorical.activation = "relu";
  for (const network& net :
       {network{"Gaussian, own value trunk, normalised observations, V-trace, RMSprop", gaussian,
                algo::correction_kind::vtrace, algo::optimizer_kind::rmsprop},
        network{"masked categorical, relu, n-step returns, RMSprop", categorical, algo::correction_kind::none,
                algo::optimizer_kind::rmsprop},
        network{"masked categorical, V-trace, Adam", categorical, algo::correction_kind::vtrace,
                algo::optimizer_kind::adam}}) {
    CAPTURE(net.name);
    model::net_spec torch_spec = net.spec;
    torch_spec.by_hand = false;
    auto by_hand_model = model::make_shared_model(net.spec, 9);
    auto torch_model = model::make_shared_model(torch_spec, 9);
    algo::algo_config a3c;
    a3c.lr = 0.003;
    a3c.entropy_coef = 0.01;
    a3c.max_grad_norm = 0.5;
    a3c.correction = net.correction;
    a3c.optimizer = net.optimizer;
    algo::learner_config config{a3c, {}, 0, 1};
    config.normalize = net.spec.normalize;
    algo::learner by_hand(by_hand_model, config);
    algo::learner reference(torch_model, config);
    REQUIRE(by_hand.trains_by_hand());
    REQUIRE_FALSE(reference.trains_by_hand());
    for (int b = 0; b < 5; ++b) {
      CAPTURE(b);
      const algo::rollout r = tests::policy_rollout(*torch_model, 5, 8, std::uint64_t(b), 200 + std::uint64_t(b), 0.2f, 11);
      REQUIRE_FALSE(r.truncation_observations.empty());
      const algo::train_result x = by_hand.train_one(r);
      const algo::train_result y = reference.train_one(r);
      CHECK(x.updates == 1);
      CHECK(y.updates == 1);
      CHECK(x.loss == doctest::Approx(y.loss).epsilon(1e-4));
      CHECK(x.policy_loss == doctest::Approx(y.policy_loss).epsilon(1e-4));
      CHECK(x.value_loss == doctest::Approx(y.value_loss).epsilon(1e-4));
      CHECK(x.entropy == doctest::Approx(y.entropy).epsilon(1e-4));
      CHECK(x.version == y.version);
      CHECK(torch::allclose(by_hand_model->flat, torch_model->flat, 1e-4, 1e-5));
    }
    // Learning moved them: the comparison is not of two untouched copies.
    CHECK_FALSE(torch::allclose(by_hand_model->flat, model::make_shared_model(net.spec, 9)->flat, 1e-3, 1e-3));
  }
}

TEST_CASE("A3C by hand: declined for policies it does not compute, and where model.by_hand is off") {
  model::net_spec multi = model::mlp_spec(4, 5, {8});
  multi.action_heads = {2, 3};
  CHECK(algo::mlp_a3c_step::for_model(*model::make_shared_model(multi, 1)) == nullptr);
  model::net_spec off = model::mlp_spec(4, 5, {8});
  off.by_hand = false;
  CHECK(algo::mlp_a3c_step::for_model(*model::make_shared_model(off, 1)) == nullptr);
  CHECK(algo::mlp_a3c_step::for_model(*model::make_shared_model(model::mlp_spec(4, 5, {8}), 1)) != nullptr);
}
}
