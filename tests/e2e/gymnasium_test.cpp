// End-to-end on Gymnasium's own environments, where gymnasium can be
// imported: by /usr/bin/python3, or from the source tree the environment
// variable TROUPE_GYMNASIUM names (Debian has no gymnasium package, so CI
// skips this with a message). Taxi-v3 (action masks from info) and
// Blackjack-v1 (a Tuple observation) train from their configs and reach
// issue #42's bars in greedy evaluation.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

// The --set that lets troupe import gymnasium ("" when the interpreter
// can), or nothing when it cannot be had.
bool gymnasium_setting(std::string& setting) {
  if (const char* tree = std::getenv("TROUPE_GYMNASIUM"); tree && *tree) {
    setting = " --set env.python_path=[" + std::string(tree) + "]";
    return true;
  }
  setting.clear();
  return run_command("/usr/bin/python3 -c 'import gymnasium' > /dev/null 2>&1").exit_code == 0;
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("gymnasium: Taxi-v3 and Blackjack-v1 train from their configs and pass the bars greedily") {
  std::string setting;
  if (!gymnasium_setting(setting)) {
    MESSAGE("skipped: no gymnasium for /usr/bin/python3 (set TROUPE_GYMNASIUM to a Gymnasium source tree)");
    return;
  }
  const std::string configs = std::string(TROUPE_SOURCE_DIR) + "/configs/";
  struct task {
    std::string name;
    int episodes;
    double bar;
  };
  for (const task& t : {task{"taxi", 1000, 7.0}, task{"blackjack", 20000, -0.10}}) {
    CAPTURE(t.name);
    const std::string dir = fresh_dir("gymnasium_" + t.name);
    const auto r = run_troupe("train " + configs + "gymnasium_" + t.name + "_ppo.yaml --run-dir " + dir + setting +
                              " --set log.progress=false");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["agent_restarts"] == 0);
    CHECK(s["wall_seconds"].get<double>() <= 300.0);
    const auto e = run_troupe("eval " + dir + " --greedy --episodes " + std::to_string(t.episodes) + " --json " +
                              dir + "/eval.json");
    INFO(e.output);
    REQUIRE(e.exit_code == 0);
    CHECK(read_json(dir + "/eval.json")["return_mean"].get<double>() >= t.bar);
  }
}
}
