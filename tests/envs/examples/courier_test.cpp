// Example/Courier-v0: a native environment that declares a structured
// observation (an image and a Discrete), acts in MultiDiscrete([2 3]) and
// masks one kind at every step.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/examples/courier.hpp"

using namespace troupe;
using envs::examples::courier;

TEST_SUITE("envs") {
TEST_CASE("Example/Courier-v0: its leaves describe its row, its mask hides a wrong kind, a masked kind throws") {
  courier env;
  const envs::env_spec& spec = env.spec();
  CHECK(spec.observation.describe() == "Box(28) from Dict(map: Box(5x5x1), parcel: Discrete(3))");
  CHECK(spec.action.describe() == "MultiDiscrete([2 3])");
  REQUIRE(spec.observation.leaves.size() == 2);
  // The leaves tile the row: the map's 25 values, then the parcel's one-hot 3.
  CHECK(spec.observation.leaves[0].offset + spec.observation.leaves[0].size == spec.observation.leaves[1].offset);
  CHECK(spec.observation.leaves[1].offset + spec.observation.leaves[1].size == spec.observation.flat_size());
  CHECK(spec.has_action_mask);
  std::vector<float> obs(courier::obs_size);
  std::vector<std::uint8_t> legal(5);
  env.reset(11, obs.data());
  double total = 0;
  for (int t = 0; t < courier::max_steps; ++t) {
    REQUIRE(std::count(obs.begin(), obs.begin() + courier::map_size, 1.f) == 1);
    REQUIRE(std::count(obs.begin() + courier::map_size, obs.end(), 1.f) == 1);
    const int lit = int(std::find(obs.begin(), obs.begin() + courier::map_size, 1.f) - obs.begin());
    const int parcel = int(std::find(obs.begin() + courier::map_size, obs.end(), 1.f) - obs.begin()) - courier::map_size;
    env.action_mask(legal.data());
    CHECK(legal[0] == 1);
    CHECK(legal[1] == 1);
    CHECK(legal[size_t(2 + parcel)] == 1);  // the right kind is never hidden
    CHECK(std::count(legal.begin() + 2, legal.end(), 1) == 2);
    const int hidden = int(std::find(legal.begin() + 2, legal.end(), 0) - legal.begin()) - 2;
    const float masked[2] = {0.f, float(hidden)};
    CHECK_THROWS_AS(env.step(masked, obs.data()), std::logic_error);
    const float best[2] = {float(lit % courier::side > 2 ? 1 : 0), float(parcel)};
    total += env.step(best, obs.data()).reward;
  }
  CHECK(total == 10.0);
  CHECK(catalog::make_env("Example/Courier-v0")->spec().id == "Example/Courier-v0");
}
}
