#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/mountain_car.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::mountain_car;

TEST_SUITE("envs") {
TEST_CASE("MountainCar-v0 matches every reference transition") {
  const auto ref = troupe::tests::load_reference("classic_control/MountainCar-v0.json");
  REQUIRE(ref["transitions"].size() == 200);
  int terminal = 0;
  for (const auto& rec : ref["transitions"]) {
    CAPTURE(rec["category"].get<std::string>());
    mountain_car env;
    env.set_state(troupe::tests::state_from_json<mountain_car::state_type>(rec["state"]));
    const float action = rec["action"].get<int>();
    float obs[2];
    const auto result = env.step(&action, obs);
    const auto expected = troupe::tests::state_from_json<mountain_car::state_type>(rec["next_state"]);
    for (int i = 0; i < 2; ++i) {
      CHECK(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      CHECK(obs[i] == doctest::Approx(rec["observation"][i].get<float>()).epsilon(1e-6));
    }
    CHECK(result.reward == rec["reward"].get<double>());
    CHECK(result.terminated == rec["terminated"].get<bool>());
    CHECK_FALSE(result.truncated);
    terminal += result.terminated;
  }
  CHECK(terminal > 0);
}

TEST_CASE("MountainCar-v0 follows the reference trajectories step by step") {
  const auto ref = troupe::tests::load_reference("classic_control/MountainCar-v0.json");
  REQUIRE(ref["trajectories"].size() == 3);
  for (const auto& traj : ref["trajectories"]) {
    mountain_car env;
    env.set_state(troupe::tests::state_from_json<mountain_car::state_type>(traj["initial_state"]));
    REQUIRE(traj["actions"].size() == 100);
    for (size_t t = 0; t < traj["actions"].size(); ++t) {
      CAPTURE(t);
      const float action = traj["actions"][t].get<int>();
      float obs[2];
      const auto result = env.step(&action, obs);
      const auto expected = troupe::tests::state_from_json<mountain_car::state_type>(traj["states"][t]);
      for (int i = 0; i < 2; ++i) {
        REQUIRE(std::abs(env.state()[i] - expected[i]) <= 1e-9);
        REQUIRE(obs[i] == doctest::Approx(traj["observations"][t][i].get<float>()).epsilon(1e-6));
      }
      REQUIRE(result.terminated == traj["terminated"][t].get<bool>());
      REQUIRE(result.reward == traj["rewards"][t].get<double>());
    }
  }
}

TEST_CASE("MountainCar-v0 stops the car at the left wall") {
  const auto next = mountain_car::transition({-1.19, -0.05}, 0);
  CHECK(next[0] == mountain_car::min_position);
  CHECK(next[1] == 0.0);
  // Leaving the wall keeps the velocity.
  const auto away = mountain_car::transition({-1.2, 0.01}, 2);
  CHECK(away[1] > 0.0);
}

TEST_CASE("MountainCar-v0 truncates at step 200, not before") {
  mountain_car env;
  float obs[2];
  env.reset(7, obs);
  for (int t = 1; t <= 200; ++t) {
    const float action = 1.f;  // no push: it rocks in the valley
    const auto result = env.step(&action, obs);
    REQUIRE_FALSE(result.terminated);
    REQUIRE(result.reward == -1.0);
    REQUIRE(result.truncated == (t == 200));
  }
  CHECK(env.spec().max_episode_steps == 200);
}

TEST_CASE("MountainCar-v0 reaches the goal by pushing along its velocity") {
  mountain_car env;
  float obs[2];
  env.reset(3, obs);
  bool reached = false;
  for (int t = 1; t <= 200 && !reached; ++t) {
    const float action = obs[1] < 0 ? 0.f : 2.f;
    const auto result = env.step(&action, obs);
    reached = result.terminated;
    REQUIRE(result.truncated == (!reached && t == 200));
  }
  CHECK(reached);
  CHECK(env.state()[0] >= mountain_car::goal_position);
}

TEST_CASE("MountainCar-v0 resets uniformly in [-0.6, -0.4] at rest, reproducibly per seed") {
  mountain_car env;
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

TEST_CASE("the registry makes MountainCar-v0 with its spec") {
  const auto env = troupe::catalog::make_env("MountainCar-v0");
  CHECK(env->spec().observation.flat_size() == 2);
  CHECK(env->spec().action.type == troupe::envs::space::kind::discrete);
  CHECK(env->spec().action.n == 3);
  CHECK(env->spec().max_episode_steps == 200);
}
}
