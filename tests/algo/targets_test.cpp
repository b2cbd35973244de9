// The learner's targets: which rule a config picks, on a two-step rollout
// worked out by hand (gamma 0.5, rewards 1 and 2, V = 0.5 then 0.25, and a
// bootstrap value of 1 after the second step).
#include <doctest/doctest.h>

#include <cmath>

#include "algo/targets.hpp"

using namespace troupe::algo;

namespace {

rollout two_steps() {
  rollout r;
  r.n_steps = 2;
  r.n_envs = 1;
  r.rewards = {1.0f, 2.0f};
  r.terminated = {0, 0};
  r.truncated = {0, 0};
  r.behaviour_logp = {-0.7f, -0.2f};
  return r;
}

const std::vector<float> values = {0.5f, 0.25f};
const std::vector<float> next_values = {0.25f, 1.0f};

algo_config with_gamma_half() {
  algo_config c;
  c.gamma = 0.5;
  return c;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("targets: n-step returns and their advantages by default") {
  // G1 = 2 + 0.5 * 1 = 2.5, G0 = 1 + 0.5 * 2.5 = 2.25.
  const auto t = compute_targets(with_gamma_half(), two_steps(), values, next_values, {});
  CHECK(t.returns == std::vector<float>{2.25f, 2.5f});
  CHECK(t.advantages == std::vector<float>{1.75f, 2.25f});
}

TEST_CASE("targets: rewards are scaled by reward_scale before anything else") {
  algo_config c = with_gamma_half();
  c.reward_scale = 2.0;
  // Rewards 2 and 4: G1 = 4 + 0.5 = 4.5, G0 = 2 + 0.5 * 4.5 = 4.25.
  const auto t = compute_targets(c, two_steps(), values, next_values, {});
  CHECK(t.returns == std::vector<float>{4.25f, 4.5f});
}

TEST_CASE("targets: gae_lambda 0 gives one-step TD errors, returns = advantages + values") {
  algo_config c = with_gamma_half();
  c.gae_lambda = 0.0;
  // delta0 = 1 + 0.5 * 0.25 - 0.5 = 0.625, delta1 = 2 + 0.5 * 1 - 0.25 = 2.25.
  const auto t = compute_targets(c, two_steps(), values, next_values, {});
  CHECK(t.advantages == std::vector<float>{0.625f, 2.25f});
  CHECK(t.returns == std::vector<float>{1.125f, 2.5f});
}

TEST_CASE("targets: V-trace on-policy equals the n-step targets; off-policy weights differ") {
  algo_config c = with_gamma_half();
  c.correction = correction_kind::vtrace;
  const rollout r = two_steps();
  const auto on = compute_targets(c, r, values, next_values, r.behaviour_logp);
  CHECK(on.returns[0] == doctest::Approx(2.25));
  CHECK(on.returns[1] == doctest::Approx(2.5));
  CHECK(on.advantages[0] == doctest::Approx(1.75));
  CHECK(on.advantages[1] == doctest::Approx(2.25));
  // The target policy now likes action 1 half as much (rho = 0.5 at step 1):
  // its TD error counts half, so v_1 = 0.25 + 0.5 * 2.25 = 1.375.
  const std::vector<float> target = {r.behaviour_logp[0], r.behaviour_logp[1] + std::log(0.5f)};
  const auto off = compute_targets(c, r, values, next_values, target);
  CHECK(off.returns[1] == doctest::Approx(1.375));
  CHECK(off.advantages[1] == doctest::Approx(0.5 * 2.25));
}
}
