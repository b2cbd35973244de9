#include <doctest/doctest.h>

#include <cmath>

#include "algo/returns.hpp"
#include "algo/vtrace.hpp"

using namespace troupe::algo;

TEST_SUITE("algo") {
TEST_CASE("V-trace targets for a short trajectory, by hand") {
  // One env, two steps, gamma 0.9, rho_bar = c_bar = 1. V = (1, 2), bootstrap
  // V(x2) = 3, rewards 1, 1. Behaviour probabilities 0.5, 0.5; target 0.25, 1.
  // t=1: ratio 2 -> rho = c = 1: delta = 1 + .9*3 - 2 = 1.7; vs1 = 2 + 1.7 = 3.7
  //      pg1 = 1 * (1 + .9*3 - 2) = 1.7
  // t=0: ratio .5 -> rho = c = .5: delta = .5 * (1 + .9*2 - 1) = .9
  //      vs0 = 1 + .9 + .9*.5*1.7 = 2.665; pg0 = .5 * (1 + .9*3.7 - 1) = 1.665
  const auto t = vtrace({std::log(.5f), std::log(.5f)}, {std::log(.25f), std::log(1.f)},
                        {1, 1}, {0, 0}, {0, 0}, {1, 2}, {2, 3}, 2, 1, {0.9, 1.0, 1.0});
  CHECK(t.vs[0] == doctest::Approx(2.665));
  CHECK(t.vs[1] == doctest::Approx(3.7));
  CHECK(t.pg_advantages[0] == doctest::Approx(1.665));
  CHECK(t.pg_advantages[1] == doctest::Approx(1.7));
}

TEST_CASE("on-policy V-trace reduces to n-step returns") {
  // 4 steps x 2 envs with a termination and a truncation in the middle.
  const int n = 4, k = 2;
  const std::vector<float> rewards = {1, 0.5f, 2, 1, -1, 3, 0.25f, 1};
  const std::vector<std::uint8_t> terminated = {0, 0, 1, 0, 0, 0, 0, 0};
  const std::vector<std::uint8_t> truncated = {0, 0, 0, 0, 0, 1, 0, 0};
  const std::vector<float> values = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
  // Successor values: the next row's values, a cut-off state's value at the
  // truncation, anything at the termination, the bootstrap at the end.
  const std::vector<float> next_values = {0.3f, 0.4f, 9.f, 0.6f, 0.7f, 5.f, 1.5f, 2.5f};
  const std::vector<float> logp(8, std::log(0.3f));
  const double gamma = 0.95;
  const auto t = vtrace(logp, logp, rewards, terminated, truncated, values, next_values, n, k,
                        {gamma, 1.0, 1.0});
  const auto g = nstep_returns(rewards, terminated, truncated, next_values, n, k, gamma);
  const auto adv = advantages(g, values);
  for (int i = 0; i < n * k; ++i) {
    CAPTURE(i);
    CHECK(t.vs[i] == doctest::Approx(g[i]).epsilon(1e-5));
    CHECK(t.pg_advantages[i] == doctest::Approx(adv[i]).epsilon(1e-5));
  }
}

TEST_CASE("V-trace clips large importance weights at rho_bar") {
  // Target far more likely than behaviour: ratio 10, clipped to rho_bar = 1.
  const auto t = vtrace({std::log(.05f)}, {std::log(.5f)}, {1}, {1}, {0}, {0}, {0}, 1, 1,
                        {0.9, 1.0, 1.0});
  CHECK(t.vs[0] == doctest::Approx(1.0));
  const auto t2 = vtrace({std::log(.05f)}, {std::log(.5f)}, {1}, {1}, {0}, {0}, {0}, 1, 1,
                         {0.9, 2.0, 1.0});
  CHECK(t2.vs[0] == doctest::Approx(2.0));
}
}
