#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/cartpole.hpp"
#include "envs/policy_rollout.hpp"

using namespace troupe::envs;
using namespace troupe::catalog;

namespace {
rollout_result rollout(const std::string& id, fixed_policy policy, int episodes,
                       std::uint64_t seed, int cap = 100000) {
  const auto env = make_env(id);
  rollout_options options;
  options.policy = policy;
  options.episodes = episodes;
  options.seed = seed;
  options.max_steps_per_episode = cap;
  return run_policy_rollout(*env, options);
}
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("policy rollout: summarize gives the population statistics") {
  const auto constant = summarize({3.5, 3.5, 3.5, 3.5});
  CHECK(constant.mean == 3.5);
  CHECK(constant.std == 0.0);
  CHECK(constant.min == 3.5);
  CHECK(constant.max == 3.5);
  // 1..4: mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, / 4 = 1.25.
  const auto s = summarize({4.0, 1.0, 3.0, 2.0});
  CHECK(s.mean == 2.5);
  CHECK(s.std == doctest::Approx(std::sqrt(1.25)));
  CHECK(s.min == 1.0);
  CHECK(s.max == 4.0);
  const auto empty = summarize({});
  CHECK(empty.mean == 0.0);
  CHECK(empty.std == 0.0);
}

TEST_CASE("policy rollout: fixed policy names, noop zeros, random within the space") {
  CHECK(parse_fixed_policy("random") == fixed_policy::random);
  CHECK(parse_fixed_policy("noop") == fixed_policy::noop);
  CHECK(to_string(fixed_policy::noop) == "noop");
  CHECK_THROWS_WITH_AS(parse_fixed_policy("greedy"), doctest::Contains("'greedy'"),
                       std::invalid_argument);

  const space discrete = space::discrete_space(3);
  fixed_policy_actions noop_discrete(fixed_policy::noop, discrete, 1);
  fixed_policy_actions random_discrete(fixed_policy::random, discrete, 1);
  std::set<float> seen;
  for (int i = 0; i < 300; ++i) {
    CHECK(noop_discrete.next()[0] == 0.0f);
    seen.insert(random_discrete.next()[0]);
  }
  CHECK(seen == std::set<float>{0.0f, 1.0f, 2.0f});

  const space box = space::box_space({2}, {-2.0, 0.5}, {2.0, 1.0});
  fixed_policy_actions noop_box(fixed_policy::noop, box, 1);
  fixed_policy_actions random_box(fixed_policy::random, box, 1);
  for (int i = 0; i < 300; ++i) {
    CHECK(noop_box.next()[0] == 0.0f);
    CHECK(noop_box.next()[1] == 0.0f);
    const float* a = random_box.next();
    CHECK(a[0] >= -2.0f);
    CHECK(a[0] <= 2.0f);
    CHECK(a[1] >= 0.5f);
    CHECK(a[1] <= 1.0f);
  }
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(fixed_policy_actions(fixed_policy::random,
                                       space::box_space({1}, {-inf}, {inf}), 1),
                  std::invalid_argument);
}

TEST_CASE(
    "policy rollout: CartPole-v1 under noop always pushes left and falls within a few steps") {
  // The exact length for seed 3, from the dynamics alone: the first episode
  // resets with the first draw of std::mt19937_64(3); then push left (action 0)
  // until the state is terminal.
  cartpole env;
  float obs[4];
  env.reset(std::mt19937_64(3)(), obs);
  cartpole::state_type s = env.state();
  int expected_length = 0;
  do {
    s = cartpole::transition(s, 0);
    ++expected_length;
  } while (!cartpole::is_terminal(s));

  const auto r = rollout("CartPole-v1", fixed_policy::noop, 1, 3);
  REQUIRE(r.lengths.size() == 1);
  CHECK(r.lengths[0] == expected_length);
  CHECK(r.returns[0] == expected_length);  // +1 per step

  // Pushing one way topples the pole long before the 500-step limit.
  const auto many = rollout("CartPole-v1", fixed_policy::noop, 50, 11);
  for (size_t i = 0; i < many.lengths.size(); ++i) {
    CHECK(many.lengths[i] >= 5);
    CHECK(many.lengths[i] <= 20);
    CHECK(many.returns[i] == many.lengths[i]);
  }
  CHECK(many.episodes_cut == 0);
}

TEST_CASE("policy rollout: MountainCar-v0 under noop never reaches the goal") {
  // Action 0 pushes left: the car never climbs the right hill, so every
  // episode runs to the 200-step limit at -1 per step.
  const auto r = rollout("MountainCar-v0", fixed_policy::noop, 5, 1);
  REQUIRE(r.lengths.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    CHECK(r.lengths[i] == 200);
    CHECK(r.returns[i] == -200.0);
  }
  CHECK(r.return_stats.mean == -200.0);
  CHECK(r.return_stats.std == 0.0);
  CHECK(r.return_stats.min == -200.0);
  CHECK(r.return_stats.max == -200.0);
  CHECK(r.length_stats.mean == 200.0);
  CHECK(r.length_stats.std == 0.0);
  CHECK(r.episodes_cut == 0);
}

TEST_CASE("policy rollout: Pendulum-v1 random returns lie within the analytic bound") {
  // Cost per step is at most pi^2 + 0.1 * 8^2 + 0.001 * 2^2 = 16.2736 (rounded
  // up), and never negative; 200 steps per episode.
  const auto r = rollout("Pendulum-v1", fixed_policy::random, 20, 5);
  for (size_t i = 0; i < r.returns.size(); ++i) {
    CHECK(r.lengths[i] == 200);
    CHECK(r.returns[i] >= -200 * 16.2736);
    CHECK(r.returns[i] <= 0.0);
  }
  CHECK(r.return_stats.min >= -200 * 16.2736);
  CHECK(r.return_stats.max <= 0.0);
  CHECK(r.return_stats.std > 0.0);  // random starts and actions differ
}

TEST_CASE("policy rollout: the step cap ends episodes and counts the ones it cut") {
  // Freeway lasts 2500 steps, so a cap of 100 cuts every episode.
  const auto freeway = rollout("MinAtar/Freeway-v1", fixed_policy::noop, 3, 2, 100);
  CHECK(freeway.episodes_cut == 3);
  for (int length : freeway.lengths) CHECK(length == 100);
  // An episode the environment ends exactly at the cap is not cut...
  const auto at_cap = rollout("MountainCar-v0", fixed_policy::noop, 4, 2, 200);
  CHECK(at_cap.episodes_cut == 0);
  // ...and one step less cuts them all.
  const auto below = rollout("MountainCar-v0", fixed_policy::noop, 4, 2, 199);
  CHECK(below.episodes_cut == 4);
  CHECK(below.return_stats.mean == -199.0);
  CHECK(below.length_stats.mean == 199.0);
}

TEST_CASE("policy rollout: reproducible from its seed") {
  const auto a = rollout("CartPole-v1", fixed_policy::random, 10, 42);
  const auto b = rollout("CartPole-v1", fixed_policy::random, 10, 42);
  const auto c = rollout("CartPole-v1", fixed_policy::random, 10, 43);
  CHECK(a.returns == b.returns);
  CHECK(a.lengths == b.lengths);
  CHECK(a.returns != c.returns);
  CHECK_THROWS_AS(rollout("CartPole-v1", fixed_policy::random, 0, 1), std::invalid_argument);
}
}
