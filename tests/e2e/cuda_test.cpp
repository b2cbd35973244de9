// End-to-end on a GPU: the CUDA path through the real `troupe` binary. On a
// machine without a CUDA device (or a build without CUDA) each case says so
// and checks nothing; CI has no GPU, a lent GPU machine runs them
// (scripts/gpu_build_and_bench.sh).
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "model/compute_runtime.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

bool have_gpu() {
  if (troupe::model::cuda_device_count() > 0) return true;
  MESSAGE("no CUDA device in this build or on this machine: nothing to check");
  return false;
}

// Trains `extra` arguments' run to a fixed step count; returns its summary.
nlohmann::json train_steps(const std::string& dir, const std::string& extra, long steps) {
  const auto r = run_troupe(extra + " --set run.stop.env_steps=" + std::to_string(steps) +
                            " --set run.stop.mean_return=100000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  REQUIRE(s["stop_reason"] == "env_steps");
  check_accounting(s);
  return s;
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("cuda: devices [cuda:0] solves CartPole-v1 and its checkpoint scores on the CPU") {
  if (!have_gpu()) return;
  const std::string dir = fresh_dir("e2e_cuda_solve");
  const auto r = run_troupe("train " + cartpole_config + " --run-dir " + dir +
                            " --set devices=[cuda:0] --set log.progress_seconds=0.5");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  REQUIRE(s["solved"] == true);
  REQUIRE(s["devices"] == nlohmann::json::array({"cuda:0"}));
  check_accounting(s);
  // eval builds its model on the CPU: the GPU's parameters load there.
  REQUIRE(run_troupe("eval " + dir + " --episodes " + std::to_string(solved_cartpole_eval_episodes) +
                     " --json " + dir + "/eval.json").exit_code == 0);
  REQUIRE(read_json(dir + "/eval.json")["return_mean"].get<double>() >= solved_cartpole_eval_floor);
}

TEST_CASE("cuda: replicas [cuda:0, cpu] apply every update exactly once within max_lag") {
  if (!have_gpu()) return;
  const std::string dir = fresh_dir("e2e_cuda_replicas");
  const auto s = train_steps(dir,
                             "train " + cartpole_config + " --run-dir " + dir +
                                 " --set devices=[cuda:0,cpu] --set replicas.max_lag=3",
                             200000);
  REQUIRE(s["devices"] == nlohmann::json::array({"cuda:0", "cpu"}));
  const long updates = s["updates"].get<long>();
  REQUIRE(updates > 0);
  REQUIRE(s["replica_max_lag"].get<int>() <= 3);
  for (const auto& replica : s["replicas"]) {
    REQUIRE(replica["updates"].get<long>() > 0);
    REQUIRE(replica["version"].get<long>() == updates);
    REQUIRE(replica["updates"].get<long>() + replica["peer_updates"].get<long>() == updates);
  }
}

TEST_CASE("cuda: a checkpoint written on cuda:0 resumes on the cpu, and one from the cpu on cuda:0") {
  if (!have_gpu()) return;
  for (const auto& [first, second] : {std::pair<std::string, std::string>{"cuda:0", "cpu"},
                                      std::pair<std::string, std::string>{"cpu", "cuda:0"}}) {
    CAPTURE(first);
    const std::string dir = fresh_dir("e2e_cuda_resume_" + first.substr(0, 3));
    const auto a = train_steps(dir, "train " + cartpole_config + " --run-dir " + dir +
                                        " --set devices=[" + first + "]", 100000);
    const auto b = train_steps(dir, "train --resume " + dir + " --set devices=[" + second + "]",
                               200000);
    REQUIRE(b["devices"] == nlohmann::json::array({second}));
    // The second segment carried on from the first one's counters and
    // parameter version, and trained on.
    REQUIRE(b["env_steps"].get<long>() >= 200000);
    const long version_a = a["replicas"][0]["version"].get<long>();
    REQUIRE(version_a > 0);
    REQUIRE(b["replicas"][0]["version"].get<long>() == version_a + b["updates"].get<long>());
    REQUIRE(b["updates"].get<long>() > 0);
    REQUIRE(run_troupe("eval " + dir + " --episodes 5").exit_code == 0);
  }
}
}
