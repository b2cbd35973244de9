#include <doctest/doctest.h>

#include <cstddef>
#include <stdexcept>

#include "algo/returns.hpp"

using namespace troupe::algo;

TEST_SUITE("algo") {
TEST_CASE("n-step returns: bootstrap, termination and truncation, by hand") {
  // 3 steps x 2 envs, time-major, gamma 0.5.
  // env 0: rewards 1,1,1, no episode end; the rollout bootstraps from V = 8.
  //   G2 = 1 + .5*8 = 5, G1 = 1 + .5*5 = 3.5, G0 = 1 + .5*3.5 = 2.75
  // env 1: rewards 1,2,3; terminated at t=0; truncated at t=1 with V(last
  //   state) = 10; bootstraps from 4 at t=2.
  //   G2 = 3 + .5*4 = 5, G1 = 2 + .5*10 = 7, G0 = 1 + 0 = 1
  const std::vector<float> rewards = {1, 1, 1, 2, 1, 3};
  const std::vector<std::uint8_t> terminated = {0, 1, 0, 0, 0, 0};
  const std::vector<std::uint8_t> truncated = {0, 0, 0, 1, 0, 0};
  // 99 marks values that must not be read.
  const std::vector<float> next_values = {99, 99, 99, 10, 8, 4};
  const auto g = nstep_returns(rewards, terminated, truncated, next_values, 3, 2, 0.5);
  const std::vector<float> expected = {2.75f, 1.f, 3.5f, 7.f, 5.f, 5.f};
  REQUIRE(g.size() == expected.size());
  for (size_t i = 0; i < g.size(); ++i) CHECK(g[i] == doctest::Approx(expected[i]));
}

TEST_CASE("n-step returns with gamma 1 sum the rewards to the episode end") {
  const auto g = nstep_returns({1, 2, 3, 4}, {0, 0, 0, 1}, {0, 0, 0, 0}, {50, 50, 50, 50}, 4, 1, 1.0);
  CHECK(g == std::vector<float>{10, 9, 7, 4});
}

TEST_CASE("advantages are returns minus values") {
  CHECK(advantages({3, 1}, {1, 2}) == std::vector<float>{2, -1});
  CHECK_THROWS_AS(advantages({1}, {1, 2}), std::invalid_argument);
}

TEST_CASE("n-step returns reject arrays of the wrong size") {
  CHECK_THROWS_AS(nstep_returns({1}, {0}, {0}, {0}, 2, 1, 0.9), std::invalid_argument);
}
}

TEST_SUITE("algo") {
TEST_CASE("GAE with lambda 1 is n-step returns minus values; lambda 0 the TD error") {
  // The same rollout as the hand-computed n-step case above.
  const std::vector<float> rewards = {1, 1, 1, 2, 1, 3};
  const std::vector<std::uint8_t> terminated = {0, 1, 0, 0, 0, 0};
  const std::vector<std::uint8_t> truncated = {0, 0, 0, 1, 0, 0};
  const std::vector<float> values = {0.5f, 0.25f, 1.f, 2.f, 3.f, 4.f};
  // Successors: the next row's values, 10 at the truncation, 8 and 4 at the end.
  const std::vector<float> next_values = {1.f, 99.f, 3.f, 10.f, 8.f, 4.f};
  const auto g = nstep_returns(rewards, terminated, truncated, next_values, 3, 2, 0.5);
  const auto one = gae_advantages(rewards, terminated, truncated, values, next_values, 3, 2, 0.5, 1.0);
  for (size_t i = 0; i < g.size(); ++i) CHECK(one[i] == doctest::Approx(g[i] - values[i]));
  const auto zero = gae_advantages(rewards, terminated, truncated, values, next_values, 3, 2, 0.5, 0.0);
  // TD errors by hand: r + 0.5 * V(next) (0 after termination) - V.
  const std::vector<float> td = {1 + 0.5f * 1 - 0.5f, 1 + 0 - 0.25f, 1 + 0.5f * 3 - 1,
                                 2 + 0.5f * 10 - 2,  1 + 0.5f * 8 - 3, 3 + 0.5f * 4 - 4};
  for (size_t i = 0; i < td.size(); ++i) CHECK(zero[i] == doctest::Approx(td[i]));
}

TEST_CASE("GAE with lambda 0.5 weighs later TD errors by (gamma lambda)^k, by hand") {
  // One env, 2 steps, gamma 1, lambda 0.5, V = 0, bootstrap 0: deltas = rewards.
  const auto a = gae_advantages({1, 2}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, 2, 1, 1.0, 0.5);
  CHECK(a[1] == doctest::Approx(2.0));
  CHECK(a[0] == doctest::Approx(1.0 + 0.5 * 2.0));
}
}
