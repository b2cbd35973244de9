// End-to-end: several devices ([cpu, cpu]: two parameter replicas on the
// CPU) through the real `troupe` binary.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/compute_runtime.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

const std::string two_devices = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole_two_devices.yaml";

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("devices [cpu, cpu]: CartPole-v1 is solved, the replicas within max_lag, the checkpoint scores") {
  const std::string dir = fresh_dir("e2e_devices_solve");
  const auto r = run_troupe("train " + two_devices + " --run-dir " + dir +
                     " --set run.stop.wall_seconds=60 --set log.progress_seconds=0.5");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  REQUIRE(s["solved"] == true);
  REQUIRE(s["devices"] == nlohmann::json::array({"cpu", "cpu"}));
  REQUIRE(s["replicas"].size() == 2);
  REQUIRE(s["replica_max_lag_bound"] == 4);
  REQUIRE(s["replica_max_lag"].get<int>() <= 4);
  long updates = 0;
  for (const auto& replica : s["replicas"]) {
    REQUIRE(replica["updates"].get<long>() > 0);       // both replicas trained
    REQUIRE(replica["peer_updates"].get<long>() > 0);  // and heard from each other
    REQUIRE(replica["max_lag"].get<int>() <= 4);
    updates += replica["updates"].get<long>();
  }
  REQUIRE(s["updates"].get<long>() == updates);
  REQUIRE(s["samples_collected"].get<long>() ==
          s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  // The final checkpoint holds replica 0's parameters: the confirmed ones.
  REQUIRE(run_troupe("eval " + dir + " --episodes " + std::to_string(solved_cartpole_eval_episodes) +
                     " --json " + dir + "/eval.json").exit_code == 0);
  REQUIRE(read_json(dir + "/eval.json")["return_mean"].get<double>() >= solved_cartpole_eval_floor);
}

TEST_CASE("devices [cpu, cpu, cpu] stopped by steps: every replica ends with every update (3 seeds)") {
  for (int seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const std::string dir = fresh_dir("e2e_devices_steps" + std::to_string(seed));
    const auto r = run_troupe("train " + two_devices + " --run-dir " + dir +
                       " --set devices=[cpu,cpu,cpu] --set agents.count=3 --set replicas.max_lag=2" +
                       " --set run.stop.env_steps=40000 --set run.stop.mean_return=100000" +
                       " --set log.progress=false --set run.seed=" + std::to_string(seed));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    REQUIRE(s["stop_reason"] == "env_steps");
    REQUIRE(s["replicas"].size() == 3);
    const long updates = s["updates"].get<long>();
    REQUIRE(updates > 0);
    REQUIRE(s["replica_max_lag"].get<int>() <= 2);
    for (const auto& replica : s["replicas"]) {
      // Its own updates and every other replica's, each exactly once.
      REQUIRE(replica["version"].get<long>() == updates);
      REQUIRE(replica["updates"].get<long>() + replica["peer_updates"].get<long>() == updates);
    }
    REQUIRE(s["samples_collected"].get<long>() ==
            s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  }
}

TEST_CASE("devices: a CUDA device this build or machine lacks is refused, naming the key") {
  // The CPU-only build refuses every cuda:N; a CUDA build refuses a device
  // index the machine does not have.
  const std::string device = troupe::model::cuda_build() ? "cuda:99" : "cuda:0";
  const auto r = run_troupe("train " + two_devices + " --set devices=[cpu," + device + "]");
  INFO(r.output);
  REQUIRE(r.exit_code == 2);
  REQUIRE(r.output.find("key 'devices'") != std::string::npos);
  REQUIRE(r.output.find("'" + device + "'") != std::string::npos);
  REQUIRE(r.output.find(troupe::model::cuda_build() ? "CUDA device(s)" : "needs a CUDA build") !=
          std::string::npos);
}
}
