// End-to-end: the MuJoCo tasks as a user meets them, through the real
// binary: described, rolled out with a keyword argument, trained with PPO,
// checkpointed, resumed and evaluated; a bad argument refused.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("troupe envs describes a MuJoCo task's keyword arguments, and rollout takes them") {
  const auto d = run_troupe("envs --describe Hopper-v4");
  INFO(d.output);
  REQUIRE(d.exit_code == 0);
  CHECK(contains(d.output, "observation Box(11)  action Box(3)  episode limit 1000"));
  CHECK(contains(d.output, "env.mujoco.healthy_z_range  range [low, high], default [0.7, .inf]"));
  CHECK(contains(d.output, "env.mujoco.ctrl_cost_weight  number, default 0.001"));
  CHECK(contains(run_troupe("envs --describe Reacher-v4").output, "keyword arguments (Gymnasium v4's, with its defaults): none"));

  // A healthy range no state can be in: every episode ends after its first step.
  const std::string file = fresh_dir("e2e_mujoco_rollout.json");
  const auto r = run_troupe("rollout Hopper-v4 --episodes 3 --seed 1 --json " + file +
                                " --set 'env.mujoco.healthy_z_range=[5, 6]'",
                            false);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(file);
  CHECK(j["length_mean"].get<double>() == 1.0);

  const auto bad = run_troupe("rollout Hopper-v4 --episodes 1 --set env.mujoco.healthy_z_range=high");
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.output, "env.mujoco.healthy_z_range"));
  const auto unknown = run_troupe("rollout HalfCheetah-v4 --episodes 1 --set env.mujoco.healthy_reward=2");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.output, "HalfCheetah-v4 has no keyword argument 'healthy_reward'"));
}

TEST_CASE("a short HalfCheetah-v4 PPO run trains, checkpoints, resumes and evaluates") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/mujoco_halfcheetah.yaml";
  const std::string dir = fresh_dir("e2e_mujoco_train");
  auto r = run_troupe("train " + config + " --run-dir " + dir +
                      " --set run.stop.env_steps=8192 --set checkpoint.every_seconds=0.2 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  CHECK(s["env_steps"].get<long>() >= 8192);
  CHECK(s["updates"].get<long>() > 0);
  check_accounting(s);
  REQUIRE(std::filesystem::exists(dir + "/checkpoints"));

  r = run_troupe("train --resume " + dir + " --set run.stop.env_steps=16384 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.output, "resuming from"));
  s = read_json(dir + "/summary.json");
  CHECK(s["env_steps"].get<long>() >= 16384);
  check_accounting(s);

  r = run_troupe("eval " + dir + " --episodes 2 --json " + dir + "/eval.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto e = read_json(dir + "/eval.json");
  CHECK(e["episodes"] == 2);
  CHECK(e["env"] == "HalfCheetah-v4");
  CHECK(std::isfinite(e["return_mean"].get<double>()));
  CHECK(e["length_mean"].get<double>() == 1000.0);  // a cheetah never falls: the time limit ends it
}

TEST_CASE("every MuJoCo task trains a batch with PPO and evaluates") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/mujoco_halfcheetah.yaml";
  for (const char* id : {"HalfCheetah-v4", "Hopper-v4", "Walker2d-v4", "Ant-v4", "Humanoid-v4", "Swimmer-v4",
                         "InvertedPendulum-v4", "InvertedDoublePendulum-v4", "Reacher-v4"}) {
    CAPTURE(std::string(id));
    const std::string dir = fresh_dir("e2e_mujoco_each");
    auto r = run_troupe("train " + config + " --run-dir " + dir + " --set env.id=" + id +
                        " --set run.stop.env_steps=2048 --set log.progress=false");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["updates"].get<long>() > 0);
    check_accounting(s);
    r = run_troupe("eval " + dir + " --episodes 1 --json " + dir + "/eval.json");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(read_json(dir + "/eval.json")["env"] == id);
  }
}
}
