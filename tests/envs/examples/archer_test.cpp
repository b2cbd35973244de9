// Example/Archer-v0: a native environment with a hybrid action (a bow and
// how far to draw it) and a mask that hides a broken bow. The best shot is
// worked out from the landing rule its header states.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/examples/archer.hpp"

using namespace troupe;
using envs::examples::archer;

TEST_SUITE("envs") {
TEST_CASE("Example/Archer-v0: a hybrid action, a broken bow masked, the draw deciding where a shot lands") {
  archer env;
  const envs::env_spec& spec = env.spec();
  CHECK(spec.action.describe() == "MultiDiscrete([3]) + Box(1) from Tuple(Discrete(3), Box(1))");
  CHECK(spec.action.flat_size() == 2);
  CHECK(spec.action.choice_count() == 3);
  CHECK(spec.has_action_mask);
  std::vector<float> obs(archer::obs_size);
  std::vector<std::uint8_t> legal(3);
  env.reset(5, obs.data());
  double total = 0;
  int hits = 0;
  for (int t = 0; t < 200; ++t) {
    const double distance = obs[0] * 3.0, wind = obs[1];
    REQUIRE(std::count(obs.begin() + 2, obs.end(), 1.f) == 1);
    const int broken = int(std::find(obs.begin() + 2, obs.end(), 1.f) - obs.begin()) - 2;
    env.action_mask(legal.data());
    CHECK(legal[size_t(broken)] == 0);
    CHECK(std::count(legal.begin(), legal.end(), 1) == 2);
    const float masked[2] = {float(broken), 0.f};
    CHECK_THROWS_AS(env.step(masked, obs.data()), std::logic_error);
    const float too_far[2] = {float((broken + 1) % 3), 1.5f};
    CHECK_THROWS_AS(env.step(too_far, obs.data()), std::logic_error);
    // The best legal shot: each working bow at the draw that lands nearest.
    double best_reward = -1;
    float best[2] = {0, 0};
    for (int bow = 0; bow < 3; ++bow) {
      if (bow == broken) continue;
      const double draw = std::clamp(2 * (distance - bow - wind / 4) - 1, -1.0, 1.0);
      const double reward = std::max(0.0, 1.0 - std::fabs(archer::landing(bow, draw, wind) - distance));
      if (reward > best_reward) best_reward = reward, best[0] = float(bow), best[1] = float(draw);
    }
    const double reward = env.step(best, obs.data()).reward;
    CHECK(reward == doctest::Approx(best_reward).epsilon(1e-5));
    hits += reward > 0.999;
    total += reward;
    if (t % archer::max_steps == archer::max_steps - 1) env.reset(std::uint64_t(t), obs.data());
  }
  // A third of the time the right bow is broken: then a neighbour at its limit.
  CHECK(hits > 100);
  CHECK(total / 200 > 0.8);
  CHECK(catalog::make_env("Example/Archer-v0")->spec().id == "Example/Archer-v0");
}
}
