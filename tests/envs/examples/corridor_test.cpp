#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/examples/corridor.hpp"

using troupe::envs::examples::corridor;

namespace {
// The index of the one 1 in a one-hot observation; -1 if it is not one-hot.
int hot_cell(const std::vector<float>& obs) {
  int cell = -1, ones = 0;
  for (int i = 0; i < static_cast<int>(obs.size()); ++i) {
    if (obs[i] == 1.0f) {
      cell = i;
      ++ones;
    } else if (obs[i] != 0.0f) {
      return -1;
    }
  }
  return ones == 1 ? cell : -1;
}
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("Example/Corridor-v0 is registered with its spec") {
  REQUIRE(troupe::catalog::is_registered("Example/Corridor-v0"));
  const auto env = troupe::catalog::make_env("Example/Corridor-v0");
  const auto& spec = env->spec();
  CHECK(spec.id == "Example/Corridor-v0");
  CHECK(spec.observation.flat_size() == corridor::num_cells);
  CHECK(spec.action.n == 2);
  CHECK(spec.max_episode_steps == corridor::max_steps);
}

TEST_CASE("Example/Corridor-v0: walking right reaches the goal") {
  std::set<int> starts;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    corridor env;
    std::vector<float> obs(corridor::num_cells);
    env.reset(seed, obs.data());
    const int start = hot_cell(obs);
    REQUIRE(start == env.position());
    REQUIRE(start >= 0);
    REQUIRE(start < corridor::start_cells);
    starts.insert(start);
    const float right = corridor::right;
    double total = 0.0;
    // From cell s the goal (cell 7) is 7 - s steps away: 0.01 lost on each
    // step but the last, which earns 1.
    for (int t = 1; t <= corridor::goal_cell - start; ++t) {
      const auto r = env.step(&right, obs.data());
      total += r.reward;
      CHECK(hot_cell(obs) == start + t);
      CHECK(r.terminated == (t == corridor::goal_cell - start));
      CHECK_FALSE(r.truncated);
    }
    CHECK(total == doctest::Approx(1.0 - 0.01 * (corridor::goal_cell - start - 1)));
  }
  CHECK(starts.size() == corridor::start_cells);  // the seed picks the start
}

TEST_CASE("Example/Corridor-v0: the left wall holds and the limit truncates") {
  corridor env;
  std::vector<float> obs(corridor::num_cells);
  env.reset(1, obs.data());
  const float left = corridor::left;
  double total = 0.0;
  for (int t = 1; t <= corridor::max_steps; ++t) {
    const auto r = env.step(&left, obs.data());
    total += r.reward;
    CHECK_FALSE(r.terminated);
    CHECK(r.truncated == (t == corridor::max_steps));
    if (t >= corridor::start_cells) CHECK(hot_cell(obs) == 0);  // pressed against the wall
  }
  CHECK(total == doctest::Approx(-1.0));  // 100 steps at -0.01

  troupe::envs::rgb_frame frame;
  env.render(frame);
  CHECK(frame.width == corridor::num_cells * corridor::cell_pixels);
  CHECK(frame.height == corridor::cell_pixels);
}
}
