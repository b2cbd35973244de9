// run.deterministic: two runs of one config and seed, with several agents,
// write the same metrics.csv (apart from its wall-clock columns) and the
// same summary, and end with the same parameters, for A3C, PPO and a
// recurrent PPO config. Without the mode two such runs differ: agents race
// each other to the model-owner and the learner.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

// metrics.csv without the columns that measure time: every row's cells, in order.
std::vector<std::string> rows_without_clock(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::istringstream h(line);
  for (std::string cell; std::getline(h, cell, ',');) header.push_back(cell);
  REQUIRE(header.size() > 5);
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string kept;
    size_t column = 0;
    for (std::string cell; std::getline(cells, cell, ','); ++column)
      if (column < header.size() && header[column] != "wall_seconds" && header[column] != "env_steps_per_s")
        kept += header[column] + "=" + cell + " ";
    rows.push_back(kept);
  }
  return rows;
}

struct deterministic_run {
  std::vector<std::string> rows;
  nlohmann::json summary;
  nlohmann::json eval;
};

deterministic_run train_once(const std::string& config, const std::string& extra, const std::string& name) {
  const std::string dir = fresh_dir(name);
  deterministic_run run;
  run.summary = train_and_summarise(std::string(TROUPE_SOURCE_DIR) + "/configs/" + config +
                                        " --set run.deterministic=true --set agents.count=4"
                                        " --set log.progress=false --set run.stop.wall_seconds=300 " +
                                        extra,
                                    dir);
  run.rows = rows_without_clock(dir + "/metrics.csv");
  const auto e = run_troupe("eval " + dir + " --episodes 5 --json " + dir + "/eval.json");
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  run.eval = read_json(dir + "/eval.json");
  return run;
}

void check_same_run(const std::string& config, const std::string& extra, int least_rows,
                    bool must_solve = false) {
  INFO(config << " " << extra);
  const deterministic_run a = train_once(config, extra, "determinism_a");
  const deterministic_run b = train_once(config, extra, "determinism_b");
  CHECK(int(a.rows.size()) >= least_rows);
  if (must_solve) CHECK(a.summary["solved"] == true);
  REQUIRE(a.rows.size() == b.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i) {
    INFO("metrics.csv row " << i + 1);
    CHECK(a.rows[i] == b.rows[i]);
  }
  for (const char* key : {"env_steps", "episodes", "final_mean_return", "updates", "samples_trained",
                          "samples_dropped", "solved", "mean_policy_lag", "max_policy_lag"}) {
    INFO("summary.json " << key);
    CHECK(a.summary[key] == b.summary[key]);
  }
  // The final checkpoints hold the same parameters: the same version plays
  // the same (seeded) episodes alike.
  CHECK(a.eval["version"] == b.eval["version"]);
  CHECK(a.eval["return_mean"] == b.eval["return_mean"]);
  check_accounting(a.summary);
}

}  // namespace

TEST_SUITE("e2e") {

TEST_CASE("run.deterministic: two A3C runs of one seed with four agents are one run") {
  // To its confirmed solve: the stop, the confirmation and the rows all fall
  // at the same points. A checkpoint every 0.1 s asks the metrics actor for
  // its totals mid-round again and again; the rounds must go on regardless.
  check_same_run("cartpole.yaml",
                 "--set log.progress_env_steps=20000 --set checkpoint.every_seconds=0.1 --set run.stop.wall_seconds=60",
                 8, /*must_solve=*/true);
}

TEST_CASE("run.deterministic: two PPO runs of one seed with four agents are one run") {
  check_same_run("cartpole_ppo.yaml", "--set run.stop.env_steps=60000 --set log.progress_env_steps=5000", 10);
}

TEST_CASE("run.deterministic: two recurrent PPO runs (LSTM) of one seed with four agents are one run") {
  check_same_run("cartpole_pomdp_lstm_ppo.yaml",
                 "--set run.stop.env_steps=40000 --set log.progress_env_steps=5000", 6);
}

TEST_CASE("run.deterministic is refused where it cannot hold, with the reason") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml";
  const auto devices = run_troupe("train " + config + " --set run.deterministic=true --set 'devices=[cpu, cpu]' --run-dir " +
                                  fresh_dir("determinism_devices"));
  CHECK(devices.exit_code == 2);
  CHECK(devices.output.find("run.deterministic") != std::string::npos);
  CHECK(devices.output.find("use one device") != std::string::npos);
  const auto serving = run_troupe("serve " + config + " --set run.deterministic=true --listen 127.0.0.1:0 --run-dir " +
                                  fresh_dir("determinism_serving"));
  CHECK(serving.exit_code == 2);
  CHECK(serving.output.find("run.deterministic") != std::string::npos);
  CHECK(serving.output.find("workers") != std::string::npos);
}

}  // TEST_SUITE
