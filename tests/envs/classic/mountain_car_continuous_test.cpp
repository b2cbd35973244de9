#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/mountain_car_continuous.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::mountain_car_continuous;
using troupe::tests::state_from_json;

namespace {
bool is_float32(double v) { return static_cast<double>(static_cast<float>(v)) == v; }
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("MountainCarContinuous-v0 matches every reference transition") {
  const auto ref =
      troupe::tests::load_reference("classic_control/MountainCarContinuous-v0.json");
  REQUIRE(ref["transitions"].size() == 200);
  int terminal = 0;
  for (const auto& rec : ref["transitions"]) {
    CAPTURE(rec["category"].get<std::string>());
    mountain_car_continuous env;
    env.set_state(state_from_json<mountain_car_continuous::state_type>(rec["state"]));
    const double force = rec["action"].get<double>();
    const float action = static_cast<float>(force);
    REQUIRE(static_cast<double>(action) == force);
    float obs[2];
    const auto result = env.step(&action, obs);
    const auto expected = state_from_json<mountain_car_continuous::state_type>(rec["next_state"]);
    for (int i = 0; i < 2; ++i) {
      CHECK(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      CHECK(is_float32(env.state()[i]));
      CHECK(obs[i] == doctest::Approx(rec["observation"][i].get<float>()).epsilon(1e-6));
    }
    CHECK(result.reward == rec["reward"].get<double>());
    CHECK(result.terminated == rec["terminated"].get<bool>());
    CHECK_FALSE(result.truncated);
    terminal += result.terminated;
  }
  CHECK(terminal > 0);
}

TEST_CASE("MountainCarContinuous-v0 follows the reference trajectories step by step") {
  const auto ref =
      troupe::tests::load_reference("classic_control/MountainCarContinuous-v0.json");
  REQUIRE(ref["trajectories"].size() == 3);
  for (const auto& traj : ref["trajectories"]) {
    mountain_car_continuous env;
    env.set_state(state_from_json<mountain_car_continuous::state_type>(traj["initial_state"]));
    REQUIRE(traj["actions"].size() == 100);
    for (size_t t = 0; t < traj["actions"].size(); ++t) {
      CAPTURE(t);
      const float action = traj["actions"][t].get<float>();
      REQUIRE(static_cast<double>(action) == traj["actions"][t].get<double>());
      float obs[2];
      const auto result = env.step(&action, obs);
      const auto expected = state_from_json<mountain_car_continuous::state_type>(traj["states"][t]);
      for (int i = 0; i < 2; ++i) {
        REQUIRE(std::abs(env.state()[i] - expected[i]) <= 1e-9);
        REQUIRE(obs[i] == doctest::Approx(traj["observations"][t][i].get<float>()).epsilon(1e-6));
      }
      REQUIRE(result.terminated == traj["terminated"][t].get<bool>());
      REQUIRE(result.reward == traj["rewards"][t].get<double>());
    }
  }
}

TEST_CASE("MountainCarContinuous-v0 clips the force but charges the unclipped action") {
  const mountain_car_continuous::state_type s{-0.5f, 0.01f};
  const auto strong = mountain_car_continuous::transition(s, 3.0);
  const auto full = mountain_car_continuous::transition(s, 1.0);
  CHECK(strong.state == full.state);
  CHECK(mountain_car_continuous::reward(3.0, false) == doctest::Approx(-0.9));
  CHECK(mountain_car_continuous::reward(1.0, false) == doctest::Approx(-0.1));
  CHECK(mountain_car_continuous::reward(0.5, true) == doctest::Approx(100.0 - 0.025));
  // The left wall stops the car (at the wall's float32 value).
  const auto wall = mountain_car_continuous::transition({-1.19f, -0.05f}, -1.0);
  CHECK(wall.state[0] == static_cast<float>(mountain_car_continuous::min_position));
  CHECK(wall.state[1] == 0.0);
}

TEST_CASE("MountainCarContinuous-v0 truncates at step 999, not before") {
  mountain_car_continuous env;
  float obs[2];
  env.reset(7, obs);
  for (int t = 1; t <= 999; ++t) {
    const float action = 0.f;  // no push: it rocks in the valley
    const auto result = env.step(&action, obs);
    REQUIRE_FALSE(result.terminated);
    REQUIRE(result.reward == 0.0);
    REQUIRE(result.truncated == (t == 999));
    REQUIRE(is_float32(env.state()[0]));
  }
  CHECK(env.spec().max_episode_steps == 999);
}

TEST_CASE("MountainCarContinuous-v0 reaches the goal by pushing along its velocity") {
  mountain_car_continuous env;
  float obs[2];
  env.reset(3, obs);
  bool reached = false;
  double last_reward = 0.0;
  for (int t = 1; t <= 999 && !reached; ++t) {
    const float action = obs[1] < 0 ? -1.f : 1.f;
    const auto result = env.step(&action, obs);
    reached = result.terminated;
    last_reward = result.reward;
    REQUIRE_FALSE(result.truncated);
  }
  CHECK(reached);
  CHECK(last_reward == doctest::Approx(100.0 - 0.1));
}

TEST_CASE("MountainCarContinuous-v0 resets uniformly in [-0.6, -0.4] at rest, reproducibly") {
  mountain_car_continuous env;
  float obs[2], again[2];
  double sum = 0, sum_sq = 0;
  const int resets = 4000;
  for (int s = 0; s < resets; ++s) {
    env.reset(s, obs);
    const double x = env.state()[0];
    REQUIRE(x >= -0.6);
    REQUIRE(x <= -0.4);
    REQUIRE(env.state()[1] == 0.0);
    REQUIRE(obs[0] == static_cast<float>(x));
    REQUIRE(obs[1] == 0.f);
    sum += x;
    sum_sq += x * x;
  }
  const double mean = sum / resets;
  const double var = sum_sq / resets - mean * mean;
  CHECK(mean == doctest::Approx(-0.5).epsilon(0.012));      // ~6 standard errors
  CHECK(var == doctest::Approx(0.04 / 12).epsilon(0.06));  // uniform: width^2 / 12
  env.reset(123, obs);
  env.reset(123, again);
  CHECK(obs[0] == again[0]);
  env.reset(124, again);
  CHECK(obs[0] != again[0]);
}

TEST_CASE("the registry makes MountainCarContinuous-v0 with a Box(1) force in [-1, 1]") {
  const auto env = troupe::catalog::make_env("MountainCarContinuous-v0");
  CHECK(env->spec().observation.flat_size() == 2);
  const auto& action = env->spec().action;
  CHECK(action.type == troupe::envs::space::kind::box);
  CHECK(action.flat_size() == 1);
  CHECK(action.low == std::vector<double>{-1.0});
  CHECK(action.high == std::vector<double>{1.0});
  CHECK(env->spec().max_episode_steps == 999);
}
}
