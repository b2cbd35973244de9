#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/pendulum.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::pendulum;

TEST_SUITE("envs") {
TEST_CASE("Pendulum-v1 matches every reference transition") {
  const auto ref = troupe::tests::load_reference("classic_control/Pendulum-v1.json");
  REQUIRE(ref["transitions"].size() == 200);
  for (const auto& rec : ref["transitions"]) {
    CAPTURE(rec["category"].get<std::string>());
    pendulum env;
    env.set_state(troupe::tests::state_from_json<pendulum::state_type>(rec["state"]));
    // The recorded torques are float32 values, so the float action is exact.
    const double torque = rec["action"].get<double>();
    const float action = static_cast<float>(torque);
    REQUIRE(static_cast<double>(action) == torque);
    float obs[3];
    const auto result = env.step(&action, obs);
    const auto expected = troupe::tests::state_from_json<pendulum::state_type>(rec["next_state"]);
    for (int i = 0; i < 2; ++i) CHECK(std::abs(env.state()[i] - expected[i]) <= 1e-9);
    for (int i = 0; i < 3; ++i)
      CHECK(obs[i] == doctest::Approx(rec["observation"][i].get<float>()).epsilon(1e-6));
    CHECK(result.reward == rec["reward"].get<double>());
    CHECK(result.terminated == rec["terminated"].get<bool>());
    CHECK_FALSE(result.truncated);
  }
}

TEST_CASE("Pendulum-v1 follows the reference trajectories step by step") {
  const auto ref = troupe::tests::load_reference("classic_control/Pendulum-v1.json");
  REQUIRE(ref["trajectories"].size() == 3);
  for (const auto& traj : ref["trajectories"]) {
    pendulum env;
    env.set_state(troupe::tests::state_from_json<pendulum::state_type>(traj["initial_state"]));
    REQUIRE(traj["actions"].size() == 100);
    for (size_t t = 0; t < traj["actions"].size(); ++t) {
      CAPTURE(t);
      const float action = traj["actions"][t].get<float>();
      REQUIRE(static_cast<double>(action) == traj["actions"][t].get<double>());
      float obs[3];
      const auto result = env.step(&action, obs);
      const auto expected = troupe::tests::state_from_json<pendulum::state_type>(traj["states"][t]);
      for (int i = 0; i < 2; ++i) REQUIRE(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      for (int i = 0; i < 3; ++i)
        REQUIRE(obs[i] ==
                doctest::Approx(traj["observations"][t][i].get<float>()).epsilon(1e-6));
      REQUIRE(result.terminated == traj["terminated"][t].get<bool>());
      // Exact only while the state is: numpy's sin and glibc's differ in the
      // last bit now and then, so after a few steps the state (and with it
      // the cost) may sit an ulp away from the reference.
      REQUIRE(result.reward == doctest::Approx(traj["rewards"][t].get<double>()).epsilon(1e-12));
    }
  }
}

TEST_CASE("Pendulum-v1 keeps theta unwrapped and normalises it only in the cost") {
  CHECK(pendulum::angle_normalize(0.0) == 0.0);
  CHECK(pendulum::angle_normalize(pendulum::pi) == -pendulum::pi);  // [-pi, pi)
  CHECK(pendulum::angle_normalize(-pendulum::pi) == -pendulum::pi);
  CHECK(pendulum::angle_normalize(7.0) == doctest::Approx(7.0 - 2 * pendulum::pi));
  CHECK(pendulum::angle_normalize(-7.0) == doctest::Approx(-7.0 + 2 * pendulum::pi));
  const auto next = pendulum::transition({10.0, 0.0}, 0.0);
  CHECK(next[0] > 9.0);  // not wrapped
  // The torque is clipped to [-2, 2] both in the physics and in the cost.
  CHECK(pendulum::transition({0.3, 1.0}, 5.0) == pendulum::transition({0.3, 1.0}, 2.0));
  CHECK(pendulum::reward({0.3, 1.0}, -5.0) == pendulum::reward({0.3, 1.0}, -2.0));
  // The speed is clipped to [-8, 8].
  CHECK(pendulum::transition({1.5, 7.9}, 2.0)[1] == 8.0);
}

TEST_CASE("Pendulum-v1 never terminates and truncates at step 200") {
  pendulum env;
  float obs[3];
  env.reset(7, obs);
  for (int t = 1; t <= 200; ++t) {
    const float action = (t % 7) * 0.5f - 1.5f;
    const auto result = env.step(&action, obs);
    REQUIRE_FALSE(result.terminated);
    REQUIRE(result.reward <= 0.0);
    REQUIRE(result.truncated == (t == 200));
  }
  CHECK(env.spec().max_episode_steps == 200);
}

TEST_CASE("Pendulum-v1 resets theta in [-pi, pi] and speed in [-1, 1], reproducibly per seed") {
  pendulum env;
  float obs[3], again[3];
  double sum[2] = {}, sum_sq[2] = {};
  const int resets = 4000;
  for (int s = 0; s < resets; ++s) {
    env.reset(s, obs);
    const auto& state = env.state();
    REQUIRE(std::abs(state[0]) <= pendulum::pi);
    REQUIRE(std::abs(state[1]) <= 1.0);
    REQUIRE(obs[0] == static_cast<float>(std::cos(state[0])));
    REQUIRE(obs[1] == static_cast<float>(std::sin(state[0])));
    REQUIRE(obs[2] == static_cast<float>(state[1]));
    for (int i = 0; i < 2; ++i) {
      sum[i] += state[i];
      sum_sq[i] += state[i] * state[i];
    }
  }
  const double bound[2] = {pendulum::pi, 1.0};
  for (int i = 0; i < 2; ++i) {
    const double mean = sum[i] / resets;
    const double var = sum_sq[i] / resets - mean * mean;
    const double expected_var = bound[i] * bound[i] / 3;  // (2b)^2 / 12
    CHECK(std::abs(mean) < 6 * std::sqrt(expected_var / resets));
    CHECK(var == doctest::Approx(expected_var).epsilon(0.06));
  }
  env.reset(123, obs);
  env.reset(123, again);
  for (int i = 0; i < 3; ++i) CHECK(obs[i] == again[i]);
  env.reset(124, again);
  CHECK(obs[2] != again[2]);
}

TEST_CASE("the registry makes Pendulum-v1 with a Box(1) torque in [-2, 2]") {
  const auto env = troupe::catalog::make_env("Pendulum-v1");
  CHECK(env->spec().observation.flat_size() == 3);
  const auto& action = env->spec().action;
  CHECK(action.type == troupe::envs::space::kind::box);
  CHECK(action.flat_size() == 1);
  CHECK(action.low == std::vector<double>{-2.0});
  CHECK(action.high == std::vector<double>{2.0});
  CHECK(env->spec().max_episode_steps == 200);
}
}
