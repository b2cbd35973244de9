#pragma once
// What the end-to-end tests read back (logs, summary.json) and the fresh
// places they run in.
#include <doctest/doctest.h>

#include <ftw.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"

namespace troupe::tests {

// The whole file, or "" when it cannot be read (yet).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Asks `done` every 20 ms until it says yes or `seconds` pass; whether it did.
template <class Done>
bool wait_until(Done&& done, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// The first capture of `pattern` (or the whole match, when it has none) in
// the log at `path`, once it appears there; "" when `seconds` pass first.
inline std::string wait_for_log(const std::string& path, const std::regex& pattern,
                                int seconds = 30) {
  std::string found;
  wait_until(
      [&] {
        std::smatch m;
        const std::string text = read_file(path);
        if (!std::regex_search(text, m, pattern)) return false;
        found = m.size() > 1 ? std::string(m[1]) : std::string(m[0]);
        return true;
      },
      seconds);
  return found;
}

// A run directory's checkpoints (RUN/checkpoints/ckpt-*.pt), oldest first;
// its best.pt is not one of them.
inline std::vector<std::string> checkpoints_in(const std::string& run_dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(run_dir + "/checkpoints", ec))
    if (e.path().filename().string().rfind("ckpt-", 0) == 0 && e.path().extension() == ".pt")
      found.push_back(e.path().string());
  std::sort(found.begin(), found.end());
  return found;
}

// A `troupe serve` learner's address: it listens on a port the system
// picks, and its log names it.
inline std::string learner_address(const std::string& log_path) {
  return wait_for_log(log_path, std::regex("listening for workers on (127\\.0\\.0\\.1:[0-9]+)"));
}

// The env steps (second column) of the last row of a run's metrics.csv, or
// -1 while it has no row.
inline long last_row_env_steps(const std::string& csv_path) {
  std::ifstream csv(csv_path);
  std::string line, last;
  std::getline(csv, line);  // the header
  while (std::getline(csv, line))
    if (!line.empty()) last = line;
  const auto comma = last.find(',');
  return comma == std::string::npos ? -1 : std::atol(last.c_str() + comma + 1);
}

// The env steps of a run's metrics.csv, once its last row counts more than
// zero; 0 when `seconds` pass first. A learner counts a worker's steps only
// when its first rollout arrives, some time after the worker logs that it
// joined.
inline long wait_for_env_steps(const std::string& csv_path, int seconds = 30) {
  long steps = 0;
  wait_until([&] { return (steps = last_row_env_steps(csv_path)) > 0; }, seconds);
  return steps > 0 ? steps : 0;
}

inline nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path.string());
  return nlohmann::json::parse(in);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A run config of PPO on one of tests/bridges/python/test_envs.py's 10-step
// masked environments (python:test_envs:NAME: Routing, Aim), the settings
// that train them in seconds, stopping at a mean of `target` confirmed by
// 100 fresh episodes; `python_path` is its env.python_path list's inside.
inline std::string masked_test_env_config(const std::string& name, double target, long env_steps,
                                          const std::string& python_path) {
  std::ostringstream out;
  out << "run:\n  name: " << name << "\n  stop:\n    mean_return: " << target
      << "\n    confirm_episodes: 100\n    env_steps: " << env_steps << "\n    wall_seconds: 120\n"
      << "env:\n  id: python:test_envs:" << name << "\n  python_path: [" << python_path
      << "]\n  envs_per_agent: 32\nagents:\n  count: 2\n"
      << "algo:\n  kind: ppo\n  gamma: 0.9\n  n_steps: 16\n  batch_rollouts: 2\n"
      << "  max_rollouts_in_flight: 2\n  lr: 0.003\n  optimizer: adam\n  entropy_coef: 0.0\n"
      << "  ppo:\n    epochs: 3\n    minibatches: 1\n    targets: vtrace\n"
      << "model:\n  hidden: [64, 64]\n  activation: relu\nlog:\n  progress: false\n";
  return out.str();
}

// `troupe train ARGS --run-dir DIR`, which must exit 0; its summary.json.
inline nlohmann::json train_and_summarise(const std::string& args, const std::string& dir) {
  const auto r = run_troupe("train " + args + " --run-dir " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return read_json(dir + "/summary.json");
}

// Every sample a run collected was trained or dropped (summary.json).
inline void check_accounting(const nlohmann::json& summary) {
  CHECK(summary["samples_collected"].get<long>() ==
        summary["samples_trained"].get<long>() + summary["samples_dropped"].get<long>());
}

// `troupe train ARGS` run to its run.stop.env_steps: stopped there, every
// sample it collected trained or dropped. Its summary.json.
inline nlohmann::json trained_to_budget(const std::string& args, const std::string& dir) {
  const nlohmann::json s = train_and_summarise(args, dir);
  CHECK(s["stop_reason"] == "env_steps");
  check_accounting(s);
  return s;
}

// The executable under test, and the config most tests train.
inline const std::string troupe_binary = TROUPE_BINARY;
inline const std::string cartpole_config = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml";

// The least `troupe eval --episodes 100` may score of a CartPole run that
// stopped as solved. Its final checkpoint holds the parameters that 100
// confirmation episodes scored at 475 or more; eval plays 100 others,
// sampling actions, and a policy that drops the odd episode early has a
// per-episode spread of up to ~100, so ~10 on the mean. 450 leaves 2.5 of
// those; any other parameters (an earlier checkpoint, a random net: ~20) fail.
constexpr double solved_cartpole_eval_floor = 450.0;
constexpr int solved_cartpole_eval_episodes = 100;

// Removes `path` and everything below it, if it exists. Not with
// std::filesystem::remove_all: in the GPU build the test binary's calls to it
// were bound to a broken copy inside PyTorch's libtorch.so and crashed.
inline void remove_tree(const std::string& path) {
  nftw(
      path.c_str(),
      [](const char* entry, const struct stat*, int, struct FTW*) { return ::remove(entry); }, 16,
      FTW_DEPTH | FTW_PHYS);
}

// <temp>/troupe_<name>, removed if an earlier run left it.
inline std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("troupe_" + name);
  remove_tree(dir.string());
  return dir.string();
}

}  // namespace troupe::tests
