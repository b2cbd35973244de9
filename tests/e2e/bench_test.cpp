// End-to-end: `troupe bench inference` writes the table it prints as JSON,
// with the fields the docs promise. Speed itself is never asserted here.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("bench inference measures every mode and agent count and writes them as JSON") {
  const std::string json = fresh_dir("e2e_bench_inference.json");
  const auto r = run_troupe("bench inference --net mlp --agents 1,3 --seconds 0.1 --json " + json);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(json);
  CHECK(j["net"] == "mlp");
  CHECK(j["device"] == "cpu");
  CHECK(j["agent_scheduling"] == "batch");  // the default, as agents.batch_scheduling
  REQUIRE(j["results"].size() == 8);  // 4 modes x 2 agent counts
  std::map<std::string, std::map<int, nlohmann::json>> by_mode;
  for (const auto& row : j["results"]) by_mode[row["mode"]][row["agents"].get<int>()] = row;
  REQUIRE(by_mode.size() == 4);
  for (const auto& [mode, rows] : by_mode) {
    CAPTURE(mode);
    REQUIRE(rows.size() == 2);
    for (const auto& [agents, row] : rows) {
      CHECK(row["predictions_per_s"].get<double>() > 0);
      CHECK(row["p50_us"].get<double>() <= row["p99_us"].get<double>());
      CHECK(row["gpu_utilisation_percent"].is_null());  // on the CPU
      const bool owner = mode == "batched" || mode == "unbatched";
      CHECK(row["owner_forward_share"].is_null() == !owner);
      if (owner) {
        const double busy = row["owner_forward_share"].get<double>() +
                            row["owner_reply_share"].get<double>();
        CHECK(busy > 0);
        // One thread cannot be busy for much longer than the run: only the
        // passes in flight at its end finish after it (on a GPU machine one
        // such pass made a 0.1 s run's shares add up to 1.05).
        CHECK(busy <= 1.25);
      }
    }
  }
  // The mlp net: (4*64+64) + (64*64+64) + (64*2+2) + (64+1) floats.
  const long one_model = 4L * ((4 * 64 + 64) + (64 * 64 + 64) + (64 * 2 + 2) + (64 + 1));
  CHECK(by_mode["batched"][3]["model_bytes"] == one_model);
  CHECK(by_mode["mutex"][3]["model_bytes"] == one_model);
  CHECK(by_mode["copies"][3]["model_bytes"] == 3 * one_model);  // one per agent thread
  CHECK(by_mode["unbatched"][3]["mean_batch"] == 1.0);
}

TEST_CASE("bench inference records the requesters' scheduling and rejects unknown policies") {
  const std::string json = fresh_dir("e2e_bench_scheduling.json");
  const auto r = run_troupe("bench inference --net mlp --agents 2 --seconds 0.05 --modes batched "
                            "--agent-scheduling normal --json " + json);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_json(json)["agent_scheduling"] == "normal");
  const auto bad = run_troupe("bench inference --agent-scheduling fifo");
  INFO(bad.output);
  CHECK(bad.exit_code != 0);
  CHECK(bad.output.find("--agent-scheduling") != std::string::npos);
}

TEST_CASE("bench inference: several observations a request, a recurrent net, echo, the lane against messages, and the floor") {
  const std::string json = fresh_dir("e2e_bench_rows.json");
  const auto r = run_troupe("bench inference --net lstm --agents 2 --rows 4 --seconds 0.1 "
                            "--modes echo,batched,batched-messages,copies --reply-threads 2 --json " +
                            json);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("floor on this machine: thread wake-up round trip") != std::string::npos);
  const auto j = read_json(json);
  CHECK(j["net"] == "lstm");
  CHECK(j["rows_per_request"] == 4);
  CHECK(j["reply_threads"] == 2);
  CHECK(j["floor"]["wake_round_trip_us"].get<double>() > 0);
  CHECK(j["floor"]["wake_round_trip_cpu_us"].get<double>() > 0);
  CHECK(j["cores"].get<int>() >= 1);
  CHECK(j["floor"]["forward_one_request_us"].get<double>() > 0);
  REQUIRE(j["results"].size() == 4);
  for (const auto& row : j["results"]) {
    CAPTURE(row["mode"]);
    CHECK(row["failed"].is_null());
    CHECK(row["requests_per_s"].get<double>() > 0);
    // Every prediction costs the process some CPU; none costs a second.
    CHECK(row["cpu_us_per_prediction"].get<double>() > 0);
    CHECK(row["cpu_us_per_prediction"].get<double>() < 1e6);
    // Each request carried 4 observations, each answered.
    CHECK(row["predictions_per_s"].get<double>() ==
          doctest::Approx(4 * row["requests_per_s"].get<double>()));
    const bool batched = row["mode"] == "batched" || row["mode"] == "batched-messages";
    CHECK(row["forward_at_mean_batch_us"].is_null() == !batched);
    CHECK(row["owner_forward_share"].is_null() == !batched);
  }
}
}
