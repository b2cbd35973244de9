#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/classic/cartpole.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::cartpole;

TEST_SUITE("envs") {
TEST_CASE("CartPole-v1 matches every reference transition") {
  const auto ref = troupe::tests::load_reference("classic_control/CartPole-v1.json");
  REQUIRE(ref["transitions"].size() == 200);
  for (const auto& rec : ref["transitions"]) {
    cartpole env;
    env.set_state(troupe::tests::state_from_json<cartpole::state_type>(rec["state"]));
    const float action = rec["action"].get<int>();
    float obs[4];
    const auto result = env.step(&action, obs);
    const auto expected = troupe::tests::state_from_json<cartpole::state_type>(rec["next_state"]);
    for (int i = 0; i < 4; ++i) {
      CHECK(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      CHECK(obs[i] == doctest::Approx(rec["observation"][i].get<float>()).epsilon(1e-6));
    }
    CHECK(result.reward == rec["reward"].get<double>());
    CHECK(result.terminated == rec["terminated"].get<bool>());
    CHECK_FALSE(result.truncated);
  }
}

TEST_CASE("CartPole-v1 follows the reference trajectories step by step") {
  const auto ref = troupe::tests::load_reference("classic_control/CartPole-v1.json");
  for (const auto& traj : ref["trajectories"]) {
    cartpole env;
    env.set_state(troupe::tests::state_from_json<cartpole::state_type>(traj["initial_state"]));
    for (size_t t = 0; t < traj["actions"].size(); ++t) {
      const float action = traj["actions"][t].get<int>();
      float obs[4];
      const auto result = env.step(&action, obs);
      const auto expected = troupe::tests::state_from_json<cartpole::state_type>(traj["states"][t]);
      for (int i = 0; i < 4; ++i) REQUIRE(std::abs(env.state()[i] - expected[i]) <= 1e-9);
      REQUIRE(result.terminated == traj["terminated"][t].get<bool>());
      REQUIRE(result.reward == traj["rewards"][t].get<double>());
    }
  }
}

TEST_CASE("CartPole-v1 truncates at step 500, not before") {
  cartpole env;
  float obs[4];
  env.reset(7, obs);
  for (int t = 1; t <= 500; ++t) {
    // A linear controller that keeps the pole up for far longer than 500 steps.
    const float action = (obs[2] + 0.5f * obs[3] + 0.01f * obs[0] + 0.1f * obs[1]) > 0 ? 1.f : 0.f;
    const auto result = env.step(&action, obs);
    REQUIRE_FALSE(result.terminated);
    REQUIRE(result.truncated == (t == 500));
  }
  CHECK(env.spec().max_episode_steps == 500);
}

TEST_CASE("CartPole-v1 resets uniformly in [-0.05, 0.05] and reproducibly per seed") {
  cartpole env;
  float obs[4], again[4];
  double sum[4] = {}, sum_sq[4] = {};
  const int resets = 4000;
  for (int s = 0; s < resets; ++s) {
    env.reset(s, obs);
    for (int i = 0; i < 4; ++i) {
      REQUIRE(std::abs(obs[i]) <= 0.05f);
      sum[i] += obs[i];
      sum_sq[i] += double(obs[i]) * obs[i];
    }
  }
  for (int i = 0; i < 4; ++i) {
    const double mean = sum[i] / resets;
    const double var = sum_sq[i] / resets - mean * mean;
    CHECK(std::abs(mean) < 0.003);                          // ~6 standard errors
    CHECK(var == doctest::Approx(0.01 / 12).epsilon(0.06));  // uniform: width^2 / 12
  }
  env.reset(123, obs);
  env.reset(123, again);
  for (int i = 0; i < 4; ++i) CHECK(obs[i] == again[i]);
}

TEST_CASE("the registry makes environments by id and names the known ones otherwise") {
  CHECK(troupe::catalog::make_env("CartPole-v1")->spec().observation.flat_size() == 4);
  CHECK_THROWS_WITH_AS(troupe::catalog::make_env("CartPole-v9"),
                       doctest::Contains("CartPole-v1"), std::invalid_argument);
}
}
