// Durability, as a user meets it: SIGKILL at random moments, resume, SIGINT,
// evaluation of a trained run.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"
#include "tests/tensorboard_events.hpp"

namespace fs = std::filesystem;

using namespace troupe::tests;

namespace {

bool has_checkpoint(const std::string& run_dir) { return !checkpoints_in(run_dir).empty(); }

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("SIGKILL at 10 random moments of a whole run: the newest checkpoint loads and resume solves") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 10; ++round) {
    CAPTURE(round);
    const std::string dir = fresh_dir("ckpt_kill");
    const std::string log = dir + ".log";
    {
      // No reachable target: the run trains its whole budget (600k env
      // steps, about 2 s here), through the moment it would have solved
      // (about 1 s in) and past it.
      troupe::tests::child_process p(
          {troupe_binary, "train", cartpole_config, "--run-dir", dir, "--set", "checkpoint.every_seconds=0.05",
           "--set", "log.progress=false", "--set", "run.seed=" + std::to_string(round + 1),
           "--set", "run.stop.mean_return=100000", "--set", "run.stop.env_steps=600000"},
          log);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (!has_checkpoint(dir) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      REQUIRE(has_checkpoint(dir));
      // A random moment after the first checkpoint, over the whole run:
      // mid-write is likely too.
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 2000)(rng)));
      // Killed, or it had ended on its own already (its budget spent).
      if (p.running()) p.signal(SIGKILL);
      const int code = p.wait_exit();
      REQUIRE((code == 128 + SIGKILL || code == 0));
    }
    // The newest checkpoint on disk is complete: eval loads it.
    const auto eval = run_troupe("eval " + dir + " --episodes 1");
    INFO(eval.output);
    REQUIRE(eval.exit_code == 0);
    // Resume continues from it to a solved run (a longer budget: a run
    // killed near its end would otherwise have almost none left).
    const auto resumed = run_troupe("train --resume " + dir +
                                    " --set run.stop.wall_seconds=90 --set run.stop.mean_return=475" +
                                    " --set run.stop.env_steps=6000000 --set log.progress=false");
    INFO(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["solved"] == true);
    CHECK(s["samples_collected"].get<long>() ==
          s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
    CHECK(resumed.output.find("resuming from") != std::string::npos);
    // The best policy kept across the kill loads too, and scores the target.
    REQUIRE(fs::exists(dir + "/checkpoints/best.pt"));
    const auto best = run_troupe("eval " + dir + " --best --episodes 20");
    INFO(best.output);
    REQUIRE(best.exit_code == 0);
  }
}

TEST_CASE("SIGINT or SIGTERM stops gracefully: final checkpoint, summary and logs, exit code 0") {
  for (const int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    const std::string dir = fresh_dir("ckpt_sigint");
    troupe::tests::child_process p({troupe_binary, "train", cartpole_config, "--run-dir", dir, "--set",
                                    "run.stop.mean_return=100000", "--set", "checkpoint.every_seconds=0",
                                    "--set", "log.progress=false", "--set", "log.progress_seconds=0.25"},
                                   dir + ".log");
    // Signalled once a progress row is written (not after a fixed time: a
    // loaded machine took longer than 1.5 s to start), so the stop's row
    // is the second at least.
    REQUIRE(wait_for_env_steps(dir + "/metrics.csv", 60) > 0);
    p.signal(sig);
    REQUIRE(p.wait_exit(std::chrono::seconds(60)) == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["stop_reason"] == "interrupted");
    CHECK(s["samples_collected"].get<long>() ==
          s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
    CHECK(has_checkpoint(dir));  // written at the end although every_seconds is 0
    // The TensorBoard events hold every metrics.csv row, the stop's last.
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir + "/tensorboard")) files.push_back(entry.path());
    REQUIRE(files.size() == 1);
    const auto events = read_events(files[0]);
    std::ifstream csv(dir + "/metrics.csv");
    std::string line;
    long rows = -1;  // the header
    while (std::getline(csv, line)) ++rows;
    REQUIRE(rows >= 2);
    CHECK(long(events.size()) == rows + 1);  // and the version event
    CHECK(events.back().step == last_row_env_steps(dir + "/metrics.csv"));
  }
}

TEST_CASE("a second SIGINT leaves at once, and the newest checkpoint still loads") {
  for (int round = 0; round < 5; ++round) {
    CAPTURE(round);
    const std::string dir = fresh_dir("ckpt_sigint_twice");
    troupe::tests::child_process p({troupe_binary, "train", cartpole_config, "--run-dir", dir, "--set",
                                    "run.stop.mean_return=100000", "--set",
                                    "checkpoint.every_seconds=0.05", "--set", "log.progress=false"},
                                   dir + ".log");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!has_checkpoint(dir) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(has_checkpoint(dir));
    p.signal(SIGINT);
    // Two signals sent back to back may arrive as one: wait until the first
    // has been taken, then interrupt the graceful stop at once or a little later.
    const auto noticed = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (read_file(dir + ".log").find("stopping gracefully") == std::string::npos &&
           std::chrono::steady_clock::now() < noticed)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    REQUIRE(read_file(dir + ".log").find("stopping gracefully") != std::string::npos);
    std::this_thread::sleep_for(std::chrono::milliseconds(round));
    p.signal(SIGINT);
    // At once: well before the graceful path's final checkpoint and summary.
    CHECK(p.wait_exit(std::chrono::seconds(5)) == 130);
    const auto eval = run_troupe("eval " + dir + " --episodes 1");
    INFO(eval.output);
    CHECK(eval.exit_code == 0);
  }
}

TEST_CASE("troupe eval scores a solved CartPole run's confirmed parameters, and rejects bad files") {
  const std::string dir = fresh_dir("ckpt_eval");
  REQUIRE(run_troupe("train " + cartpole_config + " --run-dir " + dir +
                     " --set run.stop.wall_seconds=120 --set log.progress=false").exit_code == 0);
  REQUIRE(read_json(dir + "/summary.json")["solved"] == true);
  const auto summary = read_json(dir + "/summary.json");
  REQUIRE(run_troupe("eval " + dir + " --episodes " + std::to_string(solved_cartpole_eval_episodes) +
                     " --json " + dir + "/eval.json").exit_code == 0);
  const auto e = read_json(dir + "/eval.json");
  CHECK(e["episodes"] == solved_cartpole_eval_episodes);
  // The confirmed parameters are frozen: the last update is the confirmed one.
  CHECK(summary["confirmed_return"].get<double>() >= 475.0);
  CHECK(summary["confirmed_version"] == summary["updates"]);
  CHECK(e["return_mean"].get<double>() >= solved_cartpole_eval_floor);
  // The same command linked without CAF (troupe_offline) scores the same
  // parameters the same, episode for episode: eval needs no actor system.
  const auto offline = run_command(std::string(TROUPE_OFFLINE) + " eval " + dir + " --episodes " +
                                   std::to_string(solved_cartpole_eval_episodes) + " --json " +
                                   dir + "/eval_offline.json");
  INFO(offline.output);
  REQUIRE(offline.exit_code == 0);
  const auto o = read_json(dir + "/eval_offline.json");
  CHECK(o["return_mean"] == e["return_mean"]);
  CHECK(o["length_mean"] == e["length_mean"]);
  CHECK(o["version"] == e["version"]);

  std::ofstream(dir + "/broken.pt") << "not a checkpoint";
  const auto broken = run_troupe("eval " + dir + "/broken.pt");
  CHECK(broken.exit_code == 2);
  CHECK(broken.output.find("not a Troupe checkpoint") != std::string::npos);
  CHECK(run_troupe("train --resume " + dir + "/nonexistent").exit_code == 2);
}
}

TEST_SUITE("e2e") {
TEST_CASE("PPO with normalisation resumes from its checkpoint's statistics, and refuses to drop them") {
  const std::string pomdp = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole_pomdp_lstm_ppo.yaml";
  const std::string dir = fresh_dir("ppo_resume");
  auto r = run_troupe("train " + pomdp + " --run-dir " + dir +
                      " --set run.stop.env_steps=20000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  r = run_troupe("train --resume " + dir + " --set run.stop.env_steps=40000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["env_steps"].get<long>() >= 40000);
  check_accounting(s);
  // The statistics are part of the policy: a run without them cannot take it.
  r = run_troupe("train --resume " + dir + " --set run.stop.env_steps=60000 --set env.normalize.observation=false");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "env.normalize.observation"));
  r = run_troupe("eval " + dir + " --episodes 3");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}
}
