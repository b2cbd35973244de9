#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/acrobot.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::acrobot;

TEST_SUITE("envs") {
TEST_CASE("Acrobot-v1 matches every reference transition") {
  const auto ref = troupe::tests::load_reference("classic_control/Acrobot-v1.json");
  REQUIRE(ref["transitions"].size() == 200);
  int terminal = 0;
  for (const auto& rec : ref["transitions"]) {
    CAPTURE(rec["category"].get<std::string>());
    acrobot env;
    env.set_state(troupe::tests::state_from_json<acrobot::state_type>(rec["state"]));
    const float action = rec["action"].get<int>();
    float obs[6];
    const auto result = env.step(&action, obs);
    const auto expected = troupe::tests::state_from_json<acrobot::state_type>(rec["next_state"]);
    for (int i = 0; i < 4; ++i) CHECK(std::abs(env.state()[i] - expected[i]) <= 1e-9);
    for (int i = 0; i < 6; ++i)
      CHECK(obs[i] == doctest::Approx(rec["observation"][i].get<float>()).epsilon(1e-6));
    CHECK(result.reward == rec["reward"].get<double>());
    CHECK(result.terminated == rec["terminated"].get<bool>());
    CHECK_FALSE(result.truncated);
    terminal += result.terminated;
  }
  CHECK(terminal > 0);  // the file does exercise the goal test
}

TEST_CASE("Acrobot-v1 follows the reference trajectories step by step") {
  const auto ref = troupe::tests::load_reference("classic_control/Acrobot-v1.json");
  REQUIRE(ref["trajectories"].size() == 3);
  for (const auto& traj : ref["trajectories"]) {
    acrobot env;
    env.set_state(troupe::tests::state_from_json<acrobot::state_type>(traj["initial_state"]));
    REQUIRE(traj["actions"].size() == 100);
    for (size_t t = 0; t < traj["actions"].size(); ++t) {
      CAPTURE(t);
      const float action = traj["actions"][t].get<int>();
      float obs[6];
      const auto result = env.step(&action, obs);
      const auto expected = troupe::tests::state_from_json<acrobot::state_type>(traj["states"][t]);
      for (int i = 0; i < 4; ++i) REQUIRE(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      for (int i = 0; i < 6; ++i)
        REQUIRE(obs[i] ==
                doctest::Approx(traj["observations"][t][i].get<float>()).epsilon(1e-6));
      REQUIRE(result.terminated == traj["terminated"][t].get<bool>());
      REQUIRE(result.reward == traj["rewards"][t].get<double>());
    }
  }
}

TEST_CASE("Acrobot-v1 wraps angles into [-pi, pi] and clips both velocities") {
  // Spinning fast in both joints: the velocities saturate at 4 pi and 9 pi.
  const auto next = acrobot::transition({3.0, -3.0, 12.5, -28.0}, 2);
  CHECK(std::abs(next[0]) <= acrobot::pi);
  CHECK(std::abs(next[1]) <= acrobot::pi);
  CHECK(std::abs(next[2]) <= acrobot::max_vel_1);
  CHECK(std::abs(next[3]) <= acrobot::max_vel_2);
  CHECK(acrobot::max_vel_1 == 12.566370614359172);
  CHECK(acrobot::max_vel_2 == 28.274333882308138);
}

TEST_CASE("Acrobot-v1 truncates at step 500, not before") {
  acrobot env;
  float obs[6];
  env.reset(7, obs);
  for (int t = 1; t <= 500; ++t) {
    const float action = 1.f;  // no torque: it swings gently and never reaches the line
    const auto result = env.step(&action, obs);
    REQUIRE_FALSE(result.terminated);
    REQUIRE(result.reward == -1.0);
    REQUIRE(result.truncated == (t == 500));
  }
  CHECK(env.spec().max_episode_steps == 500);
}

TEST_CASE("Acrobot-v1 resets uniformly in [-0.1, 0.1] as float32, reproducibly per seed") {
  acrobot env;
  float obs[6], again[6];
  double sum[4] = {}, sum_sq[4] = {};
  const int resets = 4000;
  for (int s = 0; s < resets; ++s) {
    env.reset(s, obs);
    const auto& state = env.state();
    for (int i = 0; i < 4; ++i) {
      REQUIRE(std::abs(state[i]) <= 0.1);
      REQUIRE(static_cast<double>(static_cast<float>(state[i])) == state[i]);
      sum[i] += state[i];
      sum_sq[i] += state[i] * state[i];
    }
    REQUIRE(obs[0] == static_cast<float>(std::cos(state[0])));
    REQUIRE(obs[1] == static_cast<float>(std::sin(state[0])));
    REQUIRE(obs[2] == static_cast<float>(std::cos(state[1])));
    REQUIRE(obs[3] == static_cast<float>(std::sin(state[1])));
    REQUIRE(obs[4] == static_cast<float>(state[2]));
    REQUIRE(obs[5] == static_cast<float>(state[3]));
  }
  for (int i = 0; i < 4; ++i) {
    const double mean = sum[i] / resets;
    const double var = sum_sq[i] / resets - mean * mean;
    CHECK(std::abs(mean) < 0.006);                          // ~6 standard errors
    CHECK(var == doctest::Approx(0.04 / 12).epsilon(0.06));  // uniform: width^2 / 12
  }
  env.reset(123, obs);
  env.reset(123, again);
  for (int i = 0; i < 6; ++i) CHECK(obs[i] == again[i]);
  env.reset(124, again);
  CHECK(obs[4] != again[4]);
}

TEST_CASE("the registry makes Acrobot-v1 with its spec") {
  const auto env = troupe::catalog::make_env("Acrobot-v1");
  CHECK(env->spec().id == "Acrobot-v1");
  CHECK(env->spec().observation.flat_size() == 6);
  CHECK(env->spec().action.type == troupe::envs::space::kind::discrete);
  CHECK(env->spec().action.n == 3);
  CHECK(env->spec().max_episode_steps == 500);
}
}
