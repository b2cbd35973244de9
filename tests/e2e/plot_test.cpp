// Learning curves, as a user draws them: `log.plot: true` at the end of a run,
// and scripts/plot.py over several runs (seeds of one config form a group).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

namespace fs = std::filesystem;

const std::string source_dir = TROUPE_SOURCE_DIR;
const std::string plot_script = source_dir + "/scripts/plot.py";

bool is_png(const std::string& path) {
  return read_file(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0;
}

// A short CartPole run that writes metrics rows ten times a second.
std::string short_run(const std::string& name, int seed, const std::string& extra = "") {
  const std::string dir = fresh_dir(name);
  const auto r = run_troupe("train " + cartpole_config + " --run-dir " + dir +
                            " --set run.stop.env_steps=150000 --set run.stop.mean_return=100000" +
                            " --set log.progress=false --set log.progress_seconds=0.1" +
                            " --set run.seed=" + std::to_string(seed) + " " + extra);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return dir;
}

// How many groups plot.py makes of these run directories.
int plot_groups(const std::vector<std::string>& dirs) {
  std::string list;
  for (const auto& d : dirs) list += "'" + d + "',";
  const auto r = run_command("/usr/bin/python3 -c \"import sys; sys.path.insert(0, '" +
                             source_dir + "/scripts'); import plot; print(len(plot.group_runs(" +
                             "[plot.Run(d) for d in [" + list + "]])))\"");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return std::stoi(r.output);
}

// The legend labels plot.py gives those groups, one per line.
std::string plot_labels(const std::vector<std::string>& dirs) {
  std::string list;
  for (const auto& d : dirs) list += "'" + d + "',";
  const auto r = run_command("/usr/bin/python3 -c \"import sys; sys.path.insert(0, '" +
                             source_dir + "/scripts'); import plot; g = plot.group_runs(" +
                             "[plot.Run(d) for d in [" + list + "]]); d = plot.distinguishing_keys(g); " +
                             "print('\\n'.join(plot.group_label(x, d) for x in g))\"");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return r.output;
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("log.plot draws a run's curves; plot.py groups seeds of one config and refuses bad input") {
  const std::string first = short_run("plot_seed1", 1, "--set log.plot=true");
  CHECK(is_png(first + "/curves.png"));
  const std::string second = short_run("plot_seed2", 2);
  CHECK_FALSE(fs::exists(second + "/curves.png"));  // log.plot is off by default

  // The same config but for the seed: one group (drawn as mean and band).
  CHECK(plot_groups({first, second}) == 1);
  // Another learning rate is another group, whatever the seed.
  const std::string other = fresh_dir("plot_other_lr");
  fs::copy(second, other, fs::copy_options::recursive);
  std::string yaml = read_file(other + "/config.yaml");
  const auto at = yaml.find("lr: ");
  REQUIRE(at != std::string::npos);
  yaml.replace(at, yaml.find('\n', at) - at, "lr: 0.5");
  std::ofstream(other + "/config.yaml") << yaml;
  CHECK(plot_groups({first, second, other}) == 2);
  // Both groups have one run name; the legend tells them apart by the setting
  // in which they differ, and by nothing else.
  const std::string labels = plot_labels({first, second, other});
  CHECK(labels.find("algo.lr 0.5") != std::string::npos);
  CHECK(labels.find("algo.lr 0.004") != std::string::npos);  // configs/cartpole.yaml's
  CHECK(labels.find("run.seed") == std::string::npos);

  const std::string out = fresh_dir("plot_out") + "/curves.png";
  const auto drawn = run_command(plot_script + " " + first + " " + second + " " + other +
                                 " --out " + out);
  INFO(drawn.output);
  CHECK(drawn.exit_code == 0);
  CHECK(is_png(out));

  // A directory that is not a run: exit code 2, naming what is missing.
  const std::string empty = fresh_dir("plot_not_a_run");
  fs::create_directories(empty);
  const auto bad = run_command(plot_script + " " + empty + " --out " + empty + "/x.png");
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("metrics.csv") != std::string::npos);
  CHECK_FALSE(fs::exists(empty + "/x.png"));
}
}
