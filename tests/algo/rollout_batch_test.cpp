// Batches of rollouts side by side, a batch cut down to some environments,
// and an epoch's minibatches.
#include <doctest/doctest.h>

#include <set>

#include "algo/minibatches.hpp"
#include "algo/recurrent_unroll.hpp"
#include "algo/rollout_batch.hpp"
#include "algo/targets.hpp"
#include "algo/vtrace.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;
using namespace troupe::algo;

namespace {

// n steps of k environments whose every number says where it came from:
// observation (t, e) of rollout `tag` is tag * 1000 + t * 10 + e (obs_size 1).
rollout tagged(int tag, int n, int k, std::vector<int> truncated_samples = {}) {
  rollout r;
  r.agent_id = tag;
  r.sequence = tag;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = 1;
  r.state_size = 1;
  for (int e = 0; e < k; ++e) r.initial_states.push_back(float(tag * 1000 + e));
  for (int t = 0; t <= n; ++t)
    for (int e = 0; e < k; ++e) r.observations.push_back(float(tag * 1000 + t * 10 + e));
  for (int i = 0; i < n * k; ++i) {
    const bool cut = std::find(truncated_samples.begin(), truncated_samples.end(), i) != truncated_samples.end();
    r.actions.push_back(float(i % 2));
    r.rewards.push_back(float(tag * 1000 + i));
    r.terminated.push_back(0);
    r.truncated.push_back(cut);
    r.behaviour_logp.push_back(-float(i));
    r.behaviour_version.push_back(std::uint64_t(tag));
    if (cut) r.truncation_observations.push_back(float(-(tag * 1000 + i)));
  }
  return r;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("merge_rollouts: environments side by side, every array in sample order") {
  // Rollout 1: 2 envs, its sample 3 (t 1, env 1) truncated; rollout 2: 1 env,
  // its sample 0 truncated.
  const rollout merged = merge_rollouts({tagged(1, 2, 2, {3}), tagged(2, 2, 1, {0})});
  REQUIRE(rollout_shape_error(merged).empty());
  CHECK(merged.n_envs == 3);
  CHECK(merged.initial_states == std::vector<float>{1000, 1001, 2000});
  CHECK(merged.observations ==
        std::vector<float>{1000, 1001, 2000, 1010, 1011, 2010, 1020, 1021, 2020});
  CHECK(merged.rewards == std::vector<float>{1000, 1001, 2000, 1002, 1003, 2001});
  CHECK(merged.behaviour_version == std::vector<std::uint64_t>{1, 1, 2, 1, 1, 2});
  CHECK(merged.truncated == std::vector<std::uint8_t>{0, 0, 1, 0, 1, 0});
  // In sample order: rollout 2's (merged sample 2) before rollout 1's (5... 4).
  CHECK(merged.truncation_observations == std::vector<float>{-2000, -1003});
}

TEST_CASE("merge_rollouts refuses rollouts of another shape") {
  CHECK_THROWS_AS(merge_rollouts({tagged(1, 2, 2), tagged(2, 3, 2)}), std::invalid_argument);
  CHECK_THROWS_AS(merge_rollouts({}), std::invalid_argument);
}

TEST_CASE("select_envs keeps the chosen environments' sequences, in the order asked") {
  const rollout r = tagged(1, 2, 3, {2, 4});
  const rollout part = select_envs(r, {2, 0});
  REQUIRE(rollout_shape_error(part).empty());
  CHECK(part.initial_states == std::vector<float>{1002, 1000});
  CHECK(part.observations == std::vector<float>{1002, 1000, 1012, 1010, 1022, 1020});
  CHECK(part.rewards == std::vector<float>{1002, 1000, 1005, 1003});
  CHECK(part.truncation_observations == std::vector<float>{-1002});  // env 1's cut is left out
  CHECK_THROWS_AS(select_envs(r, {3}), std::invalid_argument);
}

TEST_CASE("a recurrent minibatch of some environments unrolls as they do in the whole batch") {
  model::net_spec spec = model::mlp_spec(1, 2, {8});
  spec.recurrent.kind = "lstm";
  spec.recurrent.size = 4;
  auto m = model::make_shared_model(spec, 5);
  rollout r = tagged(0, 4, 3, {5});
  r.state_size = spec.state_size();
  r.initial_states.clear();
  for (int i = 0; i < 3 * spec.state_size(); ++i) r.initial_states.push_back(0.05f * float(i % 5));
  for (float& o : r.observations) o = o / 100.0f;
  for (float& o : r.truncation_observations) o = o / 100.0f;
  r.terminated[4] = 1;  // env 1's episode ends at step 1
  const auto on_cpu = [](const torch::Tensor& t) { return t; };
  auto run = [&](const rollout& x) {
    torch::NoGradGuard no_grad;
    const auto rows = torch::from_blob(const_cast<float*>(x.observations.data()), {x.samples() + x.n_envs, 1});
    torch::Tensor cut;
    if (!x.truncation_observations.empty())
      cut = torch::from_blob(const_cast<float*>(x.truncation_observations.data()),
                             {std::int64_t(x.truncation_observations.size()), 1});
    return unroll(*m->net, x, rows, cut, on_cpu).values.slice(0, 0, x.samples()).clone();
  };
  const torch::Tensor whole = run(r);
  const torch::Tensor part = run(select_envs(r, {2, 1}));
  for (int t = 0; t < 4; ++t) {
    CHECK(part[t * 2].item<float>() == doctest::Approx(whole[t * 3 + 2].item<float>()).epsilon(1e-6));
    CHECK(part[t * 2 + 1].item<float>() == doctest::Approx(whole[t * 3 + 1].item<float>()).epsilon(1e-6));
  }
}

TEST_CASE("targets of a merged batch are each rollout's own (GAE and V-trace, worked by hand)") {
  // Two one-environment rollouts of two steps, gamma 0.5, lambda 0.5.
  // Rollout a: rewards 1, 2; V 0.5, 0.25; bootstrap 1.
  //   delta1 = 2 + 0.5 * 1 - 0.25 = 2.25;  A1 = 2.25
  //   delta0 = 1 + 0.5 * 0.25 - 0.5 = 0.625; A0 = 0.625 + 0.25 * 2.25 = 1.1875
  // Rollout b: rewards 0, 4, episode ended (terminated) at step 1; V 1, 2.
  //   delta1 = 4 - 2 = 2; A1 = 2;  delta0 = 0 + 0.5 * 2 - 1 = 0; A0 = 0 + 0.25 * 2 = 0.5
  rollout a = tagged(1, 2, 1), b = tagged(2, 2, 1);
  a.rewards = {1, 2};
  b.rewards = {0, 4};
  b.terminated = {0, 1};
  const rollout batch = merge_rollouts({a, b});
  // Merged order: t0 (a, b), t1 (a, b).
  const std::vector<float> values = {0.5f, 1.0f, 0.25f, 2.0f};
  const std::vector<float> next_values = {0.25f, 2.0f, 1.0f, 7.0f};  // b's last: ignored (terminated)
  algo_config c;
  c.gamma = 0.5;
  c.gae_lambda = 0.5;
  const learning_targets gae = compute_targets(c, batch, values, next_values, {});
  CHECK(gae.advantages == std::vector<float>{1.1875f, 0.5f, 2.25f, 2.0f});
  CHECK(gae.returns == std::vector<float>{1.6875f, 1.5f, 2.5f, 4.0f});
  // V-trace of the batch equals V-trace of each rollout on its own.
  c.correction = correction_kind::vtrace;
  const std::vector<float> target_logp = {-0.5f, -1.0f, -0.25f, -2.0f};
  const learning_targets vt = compute_targets(c, batch, values, next_values, target_logp);
  const vtrace_settings settings{0.5, 1.0, 1.0};
  const auto va = vtrace(a.behaviour_logp, {-0.5f, -0.25f}, a.rewards, a.terminated, a.truncated,
                         {0.5f, 0.25f}, {0.25f, 1.0f}, 2, 1, settings);
  const auto vb = vtrace(b.behaviour_logp, {-1.0f, -2.0f}, b.rewards, b.terminated, b.truncated,
                         {1.0f, 2.0f}, {2.0f, 7.0f}, 2, 1, settings);
  CHECK(vt.returns == std::vector<float>{va.vs[0], vb.vs[0], va.vs[1], vb.vs[1]});
  CHECK(vt.advantages == std::vector<float>{va.pg_advantages[0], vb.pg_advantages[0],
                                            va.pg_advantages[1], vb.pg_advantages[1]});
}

TEST_CASE("shuffled_minibatches: every item in exactly one minibatch of near-equal size, a new order each epoch") {
  std::mt19937_64 rng(3);
  std::vector<std::int64_t> first_order;
  for (int epoch = 0; epoch < 3; ++epoch) {
    const auto parts = shuffled_minibatches(10, 3, rng);
    REQUIRE(parts.size() == 3);
    std::multiset<std::int64_t> seen;
    std::vector<std::int64_t> order;
    for (const auto& p : parts) {
      CHECK(p.size() >= 3);
      CHECK(p.size() <= 4);
      seen.insert(p.begin(), p.end());
      order.insert(order.end(), p.begin(), p.end());
    }
    CHECK(seen.size() == 10);
    for (std::int64_t i = 0; i < 10; ++i) CHECK(seen.count(i) == 1);
    if (epoch == 0) first_order = order;
    else CHECK(order != first_order);
  }
  CHECK_THROWS_AS(shuffled_minibatches(3, 4, rng), std::invalid_argument);
  CHECK_THROWS_AS(shuffled_minibatches(3, 0, rng), std::invalid_argument);
}
}
