// Reward normalisation on a rollout worked by hand: each environment's
// discounted return, its running variance, the scaled and clipped rewards,
// and the return running on into the agent's next rollout.
#include <doctest/doctest.h>

#include <cmath>

#include "algo/reward_normalizer.hpp"

using namespace troupe;
using namespace troupe::algo;

namespace {
rollout two_envs(std::uint32_t agent, std::vector<float> rewards, std::vector<std::uint8_t> terminated) {
  rollout r;
  r.agent_id = agent;
  r.n_steps = static_cast<int>(rewards.size()) / 2;
  r.n_envs = 2;
  r.rewards = std::move(rewards);
  r.terminated = std::move(terminated);
  r.truncated.assign(r.rewards.size(), 0);
  return r;
}
}  // namespace

TEST_SUITE("algo") {
TEST_CASE("reward normalisation: rewards over the running std of the discounted return") {
  reward_normalizer normalize(0.5, 10.0, 0.0);
  model::running_moments moments(1);
  // Step 0: returns 1 and 3 (mean 2, variance 1): rewards unchanged; env 0's
  // episode ends there. Step 1: returns 2 and 0.5 * 3 + 0 = 1.5; the four
  // returns 1, 3, 2, 1.5 have mean 1.875 and variance 0.546875.
  rollout r = two_envs(0, {1, 3, 2, 0}, {1, 0, 0, 0});
  normalize.scale(r, moments);
  CHECK(moments.count == 4);
  CHECK(moments.mean[0] == doctest::Approx(1.875));
  CHECK(moments.var[0] == doctest::Approx(0.546875));
  CHECK(r.rewards[0] == doctest::Approx(1.0));
  CHECK(r.rewards[1] == doctest::Approx(3.0));
  CHECK(r.rewards[2] == doctest::Approx(2.0 / std::sqrt(0.546875)));
  CHECK(r.rewards[3] == 0.0f);
  // The agent's next rollout carries the returns on: 0.5 * 2 + 0 = 1 and
  // 0.5 * 1.5 + 0 = 0.75; another agent's environments start from 0.
  rollout next = two_envs(0, {0, 0}, {0, 0});
  normalize.scale(next, moments);
  CHECK(moments.mean[0] == doctest::Approx((1 + 3 + 2 + 1.5 + 1 + 0.75) / 6.0));
  rollout other = two_envs(1, {0, 0}, {0, 0});
  normalize.scale(other, moments);
  CHECK(moments.mean[0] == doctest::Approx((1 + 3 + 2 + 1.5 + 1 + 0.75) / 8.0));
}

TEST_CASE("reward normalisation clips the scaled rewards") {
  // Returns 0, 0, 1000, -1000: standard deviation sqrt(5e5), so the scaled
  // rewards are +-1.414, clipped to +-1.
  reward_normalizer normalize(0.99, 1.0, 1e-8);
  model::running_moments moments(1);
  rollout r = two_envs(0, {0, 0, 1000, -1000}, {0, 0, 0, 0});
  normalize.scale(r, moments);
  CHECK(r.rewards[2] == 1.0f);
  CHECK(r.rewards[3] == -1.0f);
}
}
