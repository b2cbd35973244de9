// scripts/results.sh, the command that reproduces docs/results.md, as a user
// runs it: one part, one seed, a short budget.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

const std::string script = std::string(TROUPE_SOURCE_DIR) + "/scripts/results.sh";

std::string suite(const std::string& out, const std::string& args) {
  return script + " --out " + out + " --troupe " + TROUPE_BINARY + " " + args;
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("results.sh trains, scores and tabulates a part of the suite, and keeps finished runs") {
  const std::string out = fresh_dir("results_suite");
  // Pendulum may take minutes to its target; 20 s bounds the test.
  const std::string args = "--only classic --seeds 1 --set run.stop.wall_seconds=20";
  const auto first = run_command(suite(out, args));
  INFO(first.output);
  REQUIRE(first.exit_code == 0);

  const auto all = read_json(out + "/results.json");
  for (const char* task : {"cartpole", "acrobot", "pendulum"}) {
    INFO(task);
    REQUIRE(all["groups"].contains(task));
    const auto& run = all["groups"][task][0];
    CHECK(run["seed"] == 1);
    CHECK(run["eval_return_mean"].is_number());
    // Every run was scored by its own 100-episode evaluation.
    CHECK(read_json(out + "/runs/" + task + "-s1/eval.json")["episodes"] == 100);
  }
  // CartPole solves in about a second on any seed (train_test.cpp asks the same).
  CHECK(all["groups"]["cartpole"][0]["solved"] == true);
  CHECK(all["groups"]["cartpole"][0]["eval_return_mean"].get<double>() >= solved_cartpole_eval_floor);
  const std::string table = read_file(out + "/results.md");
  CHECK(table.find("| CartPole-v1 | 475 | 1 of 1 |") != std::string::npos);
  CHECK(table.find("| Acrobot-v1 |") != std::string::npos);
  CHECK(table.find("| Pendulum-v1 |") != std::string::npos);

  // Run again: every run is kept, none trained twice.
  const auto again = run_command(suite(out, args));
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("cartpole-s1 done already") != std::string::npos);
  CHECK(again.output.find("pendulum-s1 done already") != std::string::npos);
  CHECK(again.output.find("results: cartpole-s1 (") == std::string::npos);  // a start line

  // Bad arguments: exit code 2, naming what is wrong, nothing run.
  const auto bad = run_command(suite(out, "--only atari"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("--only 'atari'") != std::string::npos);
  const auto no_binary = run_command(script + " --out " + out + " --troupe /nonexistent/troupe");
  CHECK(no_binary.exit_code == 2);
  CHECK(no_binary.output.find("/nonexistent/troupe") != std::string::npos);
}
}
