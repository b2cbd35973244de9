// The step benchmark (troupe bench envs): plain C++, no actors.
#include <doctest/doctest.h>

#include "bench/env_bench.hpp"
#include "catalog/games.hpp"

using namespace troupe::bench;
using troupe::catalog::registered_envs;

TEST_SUITE("envs") {
TEST_CASE("bench envs: the step benchmark times every registered environment") {
  CHECK(median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(median({4.0, 1.0, 2.0, 3.0}) == 2.5);
  for (const auto& entry : registered_envs()) {
    // Environments that other tests register (Test/...) fail on purpose;
    // in one process with those tests the table holds them too.
    if (entry.id.rfind("Test/", 0) == 0) continue;
    CAPTURE(entry.id);
    troupe::envs::env_config config;
    config.id = entry.id;
    // 500 steps, enough for every figure to be there (a table's timings are
    // `troupe bench envs`'s, with their own counts).
    const auto r = bench_env(troupe::catalog::with_playable_seat(config), 500, 3);
    CHECK(r.id == entry.id);
    CHECK(r.steps == 500);
    REQUIRE(r.repeat_ns.size() == 3);
    CHECK(r.ns_per_step > 0.0);
    CHECK(r.ns_per_step == median(r.repeat_ns));
    // MuJoCo tasks also time their physics alone, repeat by repeat.
    const bool mujoco = entry.id.size() > 3 && entry.id.compare(entry.id.size() - 3, 3, "-v4") == 0;
    CHECK(r.repeat_physics_ns.size() == (mujoco ? 3u : 0u));
    CHECK((r.physics_ns_per_step > 0.0) == mujoco);
  }
}
}
