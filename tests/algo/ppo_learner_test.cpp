// PPO in the learner: what one batch does to the parameters and the
// counters, beside A3C on the same batch; the learning-rate schedule and the
// normalisation statistics the learner keeps.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "algo/act_from_policy.hpp"
#include "algo/learner.hpp"
#include "algo/sampling.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/algo/acted_rollout.hpp"
#include "tests/algo/ppo_algo_config.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;
using troupe::tests::acted_rollout;
using troupe::tests::ppo_algo_config;

namespace {

// An MLP of 16 with an LSTM or GRU core of 8, over 4 observations and 2 actions.
model::net_spec recurrent_spec(const std::string& kind) {
  model::net_spec spec = model::mlp_spec(4, 2, {16});
  spec.recurrent.kind = kind;
  spec.recurrent.size = 8;
  return spec;
}

bool close_parameters(model::shared_model& a, model::shared_model& b, double tolerance) {
  const auto pa = a.net->parameters(), pb = b.net->parameters();
  for (size_t i = 0; i < pa.size(); ++i)
    if (!torch::allclose(pa[i], pb[i], 0, tolerance)) return false;
  return true;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("PPO: every minibatch is one update, and a batch's samples count once however many epochs train them") {
  auto m = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  algo::learner learner(m, ppo_algo_config(3, 4));
  const auto result = learner.train({acted_rollout(*m, 4, 3, 7, 0, 1), acted_rollout(*m, 4, 3, 9, 5, 2)});
  CHECK(result.applied);
  CHECK(result.epochs == 3);
  CHECK(result.updates == 3 * 4);
  CHECK(result.version == 12);
  CHECK(model::current_version(*m) == 12);
  CHECK(result.samples == 24);
  CHECK(result.sample_passes == 3 * 24);  // every sample once per epoch
  REQUIRE(result.rollouts.size() == 2);
  CHECK(result.rollouts[0].agent_id == 7);
  CHECK(result.rollouts[1].agent_id == 9);
  CHECK(result.rollouts[1].sequence == 5);
  // Acted at version 0 and trained from version 0: no lag at the batch's start.
  CHECK(result.lag_sum == 0);
  CHECK(std::isfinite(result.loss));
  CHECK(result.approx_kl >= 0);
}

TEST_CASE("PPO at ratio 1 with one epoch and one minibatch updates the parameters as A3C does") {
  // Same start, same batch, same optimiser: the clipped surrogate's gradient
  // at ratio 1 is the policy gradient's, so one PPO update is one A3C update
  // (without per-minibatch advantage normalisation, which A3C does not do).
  auto a3c_model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 11);
  auto ppo_model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 11);
  auto normalising_model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 11);
  algo::algo_config a3c = ppo_algo_config(1, 1);
  a3c.kind = algo::algo_kind::a3c;
  algo::algo_config ppo = ppo_algo_config(1, 1);
  ppo.ppo.normalize_advantages = false;
  const algo::rollout batch = acted_rollout(*a3c_model, 5, 4, 0, 0, 17);
  algo::learner(a3c_model, a3c).train_one(batch);
  algo::learner(ppo_model, ppo).train_one(batch);
  algo::learner(normalising_model, ppo_algo_config(1, 1)).train_one(batch);
  CHECK(close_parameters(*a3c_model, *ppo_model, 1e-6));
  // The comparison can fail: normalised advantages make another update.
  CHECK_FALSE(close_parameters(*a3c_model, *normalising_model, 1e-6));
}

TEST_CASE("PPO: target_kl ends a batch's epochs once the policy has moved that far") {
  auto m = model::make_shared_model(model::mlp_spec(4, 2, {16}), 5);
  auto c = ppo_algo_config(10, 4);
  c.lr = 0.05;
  c.ppo.target_kl = 1e-6;
  const auto stopped = algo::learner(m, c).train_one(acted_rollout(*m, 8, 4, 0, 0, 3));
  CHECK(stopped.epochs == 1);  // the first epoch always runs
  CHECK(stopped.updates == 4);
  CHECK(stopped.sample_passes == 32);
  c.ppo.target_kl = 0;  // off: every epoch
  auto fresh = model::make_shared_model(model::mlp_spec(4, 2, {16}), 5);
  const auto all = algo::learner(fresh, c).train_one(acted_rollout(*fresh, 8, 4, 0, 0, 3));
  CHECK(all.epochs == 10);
  CHECK(all.updates == 40);
}

TEST_CASE("PPO with an LSTM or a GRU: minibatches of whole environment sequences") {
  for (const std::string kind : {"lstm", "gru"}) {
    CAPTURE(kind);
    auto m = model::make_shared_model(recurrent_spec(kind), 2);
    algo::rollout r = acted_rollout(*m, 6, 4, 0, 0, 9);
    // States the rollout began with, not zeros: the unroll starts there.
    for (size_t i = 0; i < r.initial_states.size(); ++i) r.initial_states[i] = 0.01f * float(i % 7);
    const auto result = algo::learner(m, ppo_algo_config(2, 4)).train_one(r);
    CHECK(result.applied);
    CHECK(result.updates == 2 * 4);
    CHECK(result.sample_passes == 2 * 24);
    CHECK(std::isfinite(result.loss));
  }
}

TEST_CASE("recurrent PPO: the unroll from a rollout's initial states gives the acting policy's log-probabilities") {
  // An agent's way of acting, step by step, each environment's state carried
  // from one step to the next and zeroed where its episode ended; the
  // learner's first minibatch must see a ratio of 1 everywhere (no lag), or
  // PPO would clip from the start.
  for (const std::string kind : {"lstm", "gru"}) {
    CAPTURE(kind);
    const model::net_spec spec = recurrent_spec(kind);
    auto m = model::make_shared_model(spec, 4);
    const int n = 6, k = 3, s = spec.state_size();
    std::mt19937_64 rng(5);
    std::normal_distribution<float> normal;
    algo::rollout r;
    r.n_steps = n;
    r.n_envs = k;
    r.obs_size = 4;
    r.state_size = s;
    for (int i = 0; i < k * s; ++i) r.initial_states.push_back(0.1f * normal(rng));
    std::vector<float> states = r.initial_states;
    for (int i = 0; i < (n + 1) * k * 4; ++i) r.observations.push_back(normal(rng));
    for (int t = 0; t < n; ++t) {
      model::prediction out;
      model::predict(*m, &r.observations[size_t(t) * k * 4], states.data(), k, out);
      states = out.states;
      for (int e = 0; e < k; ++e) {
        const int action = int(rng() % 2);
        const bool ends = (t == 2 && e == 1) || (t == 4 && e == 0);
        r.actions.push_back(float(action));
        r.rewards.push_back(1.f);
        r.terminated.push_back(ends);
        r.truncated.push_back(0);
        r.behaviour_logp.push_back(algo::categorical_logp(&out.policy[size_t(e) * 2], 2, action));
        r.behaviour_version.push_back(0);
        if (ends) std::fill_n(states.begin() + size_t(e) * s, s, 0.f);
      }
    }
    const auto result = algo::learner(m, ppo_algo_config(1, 1)).train_one(r);
    CHECK(result.approx_kl < 1e-10);
    CHECK(result.clip_fraction == 0.0f);
  }
}

TEST_CASE("A3C with several rollouts to a batch: one update of all of them") {
  auto m = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  algo::algo_config c;
  c.batch_rollouts = 3;
  const auto result = algo::learner(m, c).train(
      {acted_rollout(*m, 5, 2, 0, 0, 1), acted_rollout(*m, 5, 1, 1, 0, 2), acted_rollout(*m, 5, 3, 2, 0, 3)});
  CHECK(result.updates == 1);
  CHECK(result.version == 1);
  CHECK(result.samples == 30);
  CHECK(result.rollouts.size() == 3);
}

TEST_CASE("algo.lr_schedule linear anneals the learning rate to 0 over the env-step budget") {
  auto m = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  algo::learner_config c{ppo_algo_config(1, 1), {}, 4 * 12, 1};
  c.algo.lr_schedule = algo::lr_schedule_kind::linear;
  algo::learner learner(m, c);
  // Batches of 12 samples: before each, 0, 12, 24, 36 of the 48 were trained.
  for (double expected : {0.01, 0.0075, 0.005, 0.0025})
    CHECK(learner.train_one(acted_rollout(*m, 3, 4, 0, 0, 1)).lr == doctest::Approx(expected).epsilon(1e-6));
  CHECK(learner.train_one(acted_rollout(*m, 3, 4, 0, 0, 1)).lr == 0.0f);  // past the budget
}

TEST_CASE("algo.lr_schedule linear over algo.lr_schedule_env_steps falls to algo.lr_final and stays there") {
  auto m = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  // The run's budget (10 batches) is not the schedule's length (4 batches).
  algo::learner_config c{ppo_algo_config(1, 1), {}, 4 * 12, 1};
  c.algo.lr_schedule = algo::lr_schedule_kind::linear;
  c.algo.lr_final = 0.002;
  algo::learner learner(m, c);
  // lr_final + (lr - lr_final) x (1 - trained / 48): 0.01, 0.008, 0.006, 0.004.
  for (double expected : {0.01, 0.008, 0.006, 0.004})
    CHECK(learner.train_one(acted_rollout(*m, 3, 4, 0, 0, 1)).lr == doctest::Approx(expected).epsilon(1e-6));
  for (int i = 0; i < 3; ++i)
    CHECK(learner.train_one(acted_rollout(*m, 3, 4, 0, 0, 1)).lr == doctest::Approx(0.002).epsilon(1e-6));
}

TEST_CASE("algo.ppo.recompute_advantages: each epoch trains on targets from the network as it is then") {
  // Without value clipping, normalisation or a schedule, an epoch that
  // recomputes its targets is one epoch of a new train call on the same
  // batch (the ratio is against the behaviour policy either way): two
  // epochs with recomputation equal two one-epoch trains, by LibTorch's
  // operations and by hand alike.
  for (bool by_hand : {true, false}) {
    CAPTURE(by_hand);
    model::net_spec spec = model::mlp_spec(4, 2, {16});
    spec.by_hand = by_hand;
    auto recomputing = model::make_shared_model(spec, 5);
    auto once = model::make_shared_model(spec, 5);
    auto twice = model::make_shared_model(spec, 5);
    const algo::rollout batch = acted_rollout(*twice, 6, 4, 0, 0, 23);
    algo::algo_config two_epochs = ppo_algo_config(2, 1);
    two_epochs.ppo.recompute_advantages = true;
    algo::learner(recomputing, two_epochs).train_one(batch);
    algo::learner(once, ppo_algo_config(2, 1)).train_one(batch);
    algo::learner one_epoch(twice, ppo_algo_config(1, 1));
    one_epoch.train_one(batch);
    one_epoch.train_one(batch);
    CHECK(close_parameters(*recomputing, *twice, 1e-6));
    // The comparison can fail: targets kept from the batch's start train otherwise.
    CHECK_FALSE(close_parameters(*once, *twice, 1e-6));
  }
}

TEST_CASE("normalisation: a batch's observations join the statistics after its updates") {
  model::net_spec spec = model::mlp_spec(4, 2, {16});
  spec.normalize.observation = true;
  spec.normalize.reward = true;
  auto m = model::make_shared_model(spec, 3);
  algo::learner_config c{ppo_algo_config(2, 2), spec.normalize, 0, 1};
  algo::learner learner(m, c);
  const algo::rollout r = acted_rollout(*m, 5, 2, 0, 0, 4);
  learner.train_one(r);
  // The 10 observations acted on (not the bootstrap row after them).
  CHECK(m->obs_moments.count == 10);
  for (int j = 0; j < 4; ++j) {
    double mean = 0;
    for (int i = 0; i < 10; ++i) mean += r.observations[size_t(i) * 4 + j] / 10.0;
    CHECK(m->obs_moments.mean[size_t(j)] == doctest::Approx(mean).epsilon(1e-9));
    CHECK(m->net->obs_mean[j].item<float>() == doctest::Approx(mean).epsilon(1e-6));
    CHECK(m->net->obs_scale[j].item<float>() ==
          doctest::Approx(1.0 / std::sqrt(m->obs_moments.var[size_t(j)] + 1e-8)).epsilon(1e-6));
  }
  // The discounted returns of both environments, one per step.
  CHECK(m->return_moments.count == 10);
}
}

TEST_SUITE("algo") {
TEST_CASE("action masks: PPO's ratios, and V-trace's, use the masks the behaviour policy sampled under") {
  // Actions sampled among random legal sets by the model itself: with the
  // masks, the learner's first minibatch sees a ratio of 1 everywhere; the
  // same rollout without its masks does not (the policy over all actions
  // gives each legal action less than the renormalised one did).
  const int actions = 5, n = 4, k = 6;
  auto m = model::make_shared_model(model::mlp_spec(4, actions, {16}), 8);
  std::mt19937_64 rng(13);
  std::normal_distribution<float> normal;
  algo::rollout r;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = 4;
  r.mask_size = actions;
  for (int i = 0; i < (n + 1) * k * 4; ++i) r.observations.push_back(normal(rng));
  model::prediction out;
  model::predict(*m, r.observations.data(), nullptr, n * k, out);
  for (int i = 0; i < n * k; ++i) {
    std::uint8_t legal[actions];
    for (auto& l : legal) l = std::uint8_t(rng() % 2);
    legal[rng() % actions] = 1;
    legal[0] = 0;  // never all legal: the masks always matter
    if (std::count(legal, legal + actions, 1) == 0) legal[1] = 1;
    const algo::sampled_action a = algo::sample_categorical(&out.policy[size_t(i) * actions], actions, rng, legal);
    r.action_masks.insert(r.action_masks.end(), legal, legal + actions);
    r.actions.push_back(float(a.action));
    r.rewards.push_back(normal(rng));
    r.terminated.push_back(0);
    r.truncated.push_back(0);
    r.behaviour_logp.push_back(a.logp);
    r.behaviour_version.push_back(out.version);
  }
  for (const auto targets : {algo::ppo_targets_kind::gae, algo::ppo_targets_kind::vtrace}) {
    algo::algo_config config = ppo_algo_config(1, 1);
    config.ppo.targets = targets;
    auto fresh = model::make_shared_model(model::mlp_spec(4, actions, {16}), 8);  // m's parameters
    const auto masked = algo::learner(fresh, config).train_one(r);
    CHECK(masked.approx_kl < 1e-10);
    CHECK(masked.clip_fraction == 0.0f);
    algo::rollout unmasked = r;
    unmasked.mask_size = 0;
    unmasked.action_masks.clear();
    auto again = model::make_shared_model(model::mlp_spec(4, actions, {16}), 8);
    CHECK(algo::learner(again, config).train_one(unmasked).approx_kl > 1e-3);
  }
  // A rollout whose masks the model's actions do not fit is refused.
  algo::rollout wrong = r;
  wrong.mask_size = actions - 1;
  wrong.action_masks.resize(size_t(n * k) * (actions - 1), 1);
  auto other = model::make_shared_model(model::mlp_spec(4, actions, {16}), 8);
  CHECK_THROWS_AS(algo::learner(other, ppo_algo_config(1, 1)).train_one(wrong), std::invalid_argument);
}
}

TEST_SUITE("algo") {
TEST_CASE("MultiDiscrete: PPO's first minibatch sees ratio 1 when the model acted under the masks it stores; an illegal component is refused") {
  const int n = 4, k = 6;
  model::net_spec spec = model::mlp_spec(4, 5, {16});
  spec.action_heads = {2, 3};
  auto m = model::make_shared_model(spec, 8);
  std::mt19937_64 rng(21);
  std::normal_distribution<float> normal;
  algo::rollout r;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = 4;
  r.action_size = 2;
  r.mask_size = 5;
  for (int i = 0; i < (n + 1) * k * 4; ++i) r.observations.push_back(normal(rng));
  model::prediction out;
  model::predict(*m, r.observations.data(), nullptr, n * k, out);
  for (int i = 0; i < n * k; ++i) {
    // The second component's last choice masked on every other sample.
    const std::uint8_t legal[5] = {1, 1, 1, 1, std::uint8_t(i % 2)};
    float action[2];
    const float logp = algo::act_from_policy(spec, &out.policy[size_t(i) * 5], nullptr, false, rng, action, legal);
    r.action_masks.insert(r.action_masks.end(), legal, legal + 5);
    r.actions.insert(r.actions.end(), action, action + 2);
    r.rewards.push_back(normal(rng));
    r.terminated.push_back(0);
    r.truncated.push_back(0);
    r.behaviour_logp.push_back(logp);
    r.behaviour_version.push_back(out.version);
  }
  auto fresh = model::make_shared_model(spec, 8);  // m's parameters
  const auto result = algo::learner(fresh, ppo_algo_config(1, 1)).train_one(r);
  CHECK(result.approx_kl < 1e-10);
  CHECK(result.clip_fraction == 0.0f);
  CHECK(fresh->version == 1);
  // A sample whose second component took its masked choice.
  algo::rollout illegal = r;
  illegal.actions[1] = 2;
  illegal.action_masks[4] = 0;
  auto other = model::make_shared_model(spec, 8);
  CHECK_THROWS_WITH_AS(algo::learner(other, ppo_algo_config(1, 1)).train_one(illegal),
                       doctest::Contains("took an action its mask does not allow"), std::invalid_argument);
  // One index per component, or the rollout is not this model's.
  algo::rollout one_index = r;
  one_index.action_size = 1;
  one_index.actions.resize(size_t(n * k));
  CHECK_THROWS_AS(algo::learner(other, ppo_algo_config(1, 1)).train_one(one_index), std::invalid_argument);
}
}
