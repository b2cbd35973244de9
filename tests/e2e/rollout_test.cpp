// End-to-end: `troupe rollout` and `troupe bench envs`, the real binary.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("troupe rollout of MountainCar-v0 under noop reports -200 every episode") {
  const std::string file = fresh_dir("e2e_rollout.json");
  const auto r = run_troupe(
      "rollout MountainCar-v0 --policy noop --episodes 3 --seed 1 --json " + file, false);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(file);
  CHECK(nlohmann::json::parse(r.output) == j);  // the same JSON on stdout
  CHECK(j["env"] == "MountainCar-v0");
  CHECK(j["policy"] == "noop");
  CHECK(j["episodes"] == 3);
  CHECK(j["seed"] == 1);
  CHECK(j["return_mean"].get<double>() == -200.0);
  CHECK(j["return_std"].get<double>() == 0.0);
  CHECK(j["return_min"].get<double>() == -200.0);
  CHECK(j["return_max"].get<double>() == -200.0);
  CHECK(j["length_mean"].get<double>() == 200.0);
  CHECK(j["length_std"].get<double>() == 0.0);
  CHECK(j["episodes_cut"] == 0);
  CHECK(j["returns"].size() == 3);
}

TEST_CASE("troupe rollout rejects an unknown environment or policy with exit code 2") {
  const auto env = run_troupe("rollout NoSuchEnv-v9 --episodes 1");
  CHECK(env.exit_code == 2);
  CHECK(env.output.find("NoSuchEnv-v9") != std::string::npos);
  CHECK(env.output.find("CartPole-v1") != std::string::npos);  // lists the known ones
  const auto policy = run_troupe("rollout CartPole-v1 --policy greedy");
  CHECK(policy.exit_code == 2);
  CHECK(policy.output.find("greedy") != std::string::npos);
  CHECK(run_troupe("rollout CartPole-v1 --episodes 0").exit_code == 2);
  CHECK(run_troupe("rollout").exit_code == 2);
}

TEST_CASE("troupe bench envs writes ns per step for the chosen environments") {
  const std::string file = fresh_dir("e2e_bench_envs.json");
  const auto r = run_troupe("bench envs --steps 2000 --env CartPole-v1 --env MinAtar/Breakout-v1"
                            " --json " + file);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("CartPole-v1") != std::string::npos);
  const auto j = read_json(file);
  REQUIRE(j["results"].size() == 2);
  for (const auto& row : j["results"]) {
    CHECK(row["ns_per_step"].get<double>() > 0.0);
    CHECK(row["steps"] == 2000);
  }
  CHECK(j["results"][0]["env"] == "CartPole-v1");
  CHECK(run_troupe("bench envs --env NoSuchEnv-v9").exit_code == 2);
  CHECK(run_troupe("bench").exit_code == 2);
}
}
