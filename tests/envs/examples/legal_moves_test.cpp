// Example/LegalMoves-v0: an environment that says which actions are legal.
#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "agents/collector.hpp"
#include "catalog/registry.hpp"
#include "envs/examples/legal_moves.hpp"
#include "envs/policy_rollout.hpp"

using namespace troupe;
using envs::examples::legal_moves;

TEST_SUITE("envs") {
TEST_CASE("Example/LegalMoves-v0: its mask is what it shows, an illegal action throws, a legal one moves on") {
  legal_moves env;
  const envs::env_spec& spec = env.spec();
  CHECK(spec.has_action_mask);
  CHECK(spec.action.n == legal_moves::num_actions);
  std::vector<float> obs(static_cast<size_t>(legal_moves::num_actions));
  std::vector<std::uint8_t> legal(static_cast<size_t>(legal_moves::num_actions));
  env.reset(3, obs.data());
  int steps = 0, rewarded = 0;
  for (; steps < legal_moves::max_steps; ++steps) {
    env.action_mask(legal.data());
    int highest = -1, illegal = -1;
    for (int a = 0; a < legal_moves::num_actions; ++a) {
      CHECK(float(legal[size_t(a)]) == obs[size_t(a)]);
      if (legal[size_t(a)]) highest = a;
      else illegal = a;
    }
    REQUIRE(highest >= 0);
    if (illegal >= 0) {
      const float bad = float(illegal);
      CHECK_THROWS_AS(env.step(&bad, obs.data()), std::logic_error);
    }
    const float best = float(highest);
    const envs::step_result r = env.step(&best, obs.data());
    rewarded += r.reward == 1.0;
    if (r.truncated) break;
  }
  CHECK(steps + 1 == legal_moves::max_steps);
  CHECK(rewarded == legal_moves::max_steps);
}

TEST_CASE("Example/LegalMoves-v0: the fixed policies take legal actions only, and score what the set sizes say") {
  auto env = catalog::make_env("Example/LegalMoves-v0");
  envs::rollout_options options;
  options.episodes = 2000;
  options.seed = 5;
  // Random among the legal actions: the highest with probability 1/|legal|,
  // so 20 x the mean of 1/k over the 31 non-empty sets = 9.54 (std of the
  // mean over 2000 episodes about 0.05). An illegal action would throw.
  const auto random = envs::run_policy_rollout(*env, options);
  CHECK(random.return_stats.mean > 9.54 - 0.25);
  CHECK(random.return_stats.mean < 9.54 + 0.25);
  // noop: the first legal action, the highest only when it is alone (5 of
  // the 31 sets): 20 x 5 / 31 = 3.23.
  options.policy = envs::fixed_policy::noop;
  const auto noop = envs::run_policy_rollout(*env, options);
  CHECK(noop.return_stats.mean > 3.23 - 0.25);
  CHECK(noop.return_stats.mean < 3.23 + 0.25);
}

TEST_CASE("action masks: a collector's rollouts keep the mask of each state acted on") {
  envs::env_config config;
  config.id = "Example/LegalMoves-v0";
  auto vector = catalog::make_env_vector(config, 3);
  std::uint64_t next_seed = 1;
  agents::collector c(*vector, {7, 4, 0}, [&](int) { return next_seed++; });
  const int n = legal_moves::num_actions;
  std::optional<algo::rollout> done;
  for (int step = 0; !done; ++step) {
    REQUIRE(c.action_masks() != nullptr);
    // Take each environment's lowest legal action.
    std::vector<float> actions(3), logp(3, 0.f);
    for (int e = 0; e < 3; ++e) {
      int a = 0;
      while (!c.action_masks()[e * n + a]) ++a;
      actions[size_t(e)] = float(a);
    }
    done = c.step(actions.data(), logp.data(), 1, {});
  }
  const algo::rollout& r = *done;
  CHECK(r.mask_size == n);
  REQUIRE(r.action_masks.size() == size_t(r.samples()) * n);
  CHECK(algo::rollout_shape_error(r).empty());
  // The observation shows the legal set: each sample's mask is its observation.
  for (long i = 0; i < r.samples(); ++i)
    for (int a = 0; a < n; ++a)
      CHECK(float(r.action_masks[size_t(i) * n + a]) == r.observations[size_t(i) * n + a]);
  // A rollout that took an action its mask forbids is refused.
  algo::rollout bad = r;
  for (int a = 0; a < n; ++a)
    if (!bad.action_masks[size_t(a)]) bad.actions[0] = float(a);
  if (bad.actions[0] != r.actions[0])
    CHECK(algo::rollout_shape_error(bad) == "sample 0 took an action its mask does not allow");
  bad = r;
  bad.action_masks.pop_back();
  CHECK(algo::rollout_shape_error(bad) == "action masks have the wrong size");
}
}
