// End-to-end: the real `troupe` binary, as a user runs it.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/tensorboard_events.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("troupe train solves CartPole-v1 from its config and accounts for every sample") {
  const std::string dir = fresh_dir("e2e_solve");
  // Bounded: a run that has not solved within 120 s fails the test.
  const auto r = run_troupe("train " + cartpole_config + " --run-dir " + dir +
                     " --set run.stop.wall_seconds=120 --set log.progress_seconds=0.5");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["solved"] == true);
  // Solved, as the config's run.stop says: the 100-episode window reached
  // 475, then 100 fresh episodes of the current parameters scored 475 too.
  // The window at the stop is not the criterion: episodes that end while
  // the evaluator plays keep moving it (CI once saw 471.3 after a passing
  // confirmation of 485.7).
  CHECK(s["mean_return_at_target"].get<double>() >= 475.0);
  CHECK(s["confirmations"].get<int>() >= 1);
  CHECK(s["confirmed_return"].get<double>() >= 475.0);
  CHECK(s["seconds_to_target"].get<double>() > 0);
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  CHECK(s["samples_collected"] == s["env_steps"]);
  CHECK(s["updates"].get<long>() > 0);
  CHECK(std::filesystem::exists(dir + "/config.yaml"));
  std::ifstream csv(dir + "/metrics.csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header.rfind("wall_seconds,env_steps,", 0) == 0);
  // The curve ends where the run reached its target, not a progress period
  // (0.5 s, some 100k steps) before it.
  const long last_row_steps = last_row_env_steps(dir + "/metrics.csv");
  REQUIRE(last_row_steps >= 0);
  CHECK(last_row_steps >= s["env_steps_to_target"].get<long>());
  // The same rows as TensorBoard events (log.tensorboard is on by default),
  // against env steps, the last one the stop's.
  std::vector<std::string> event_files;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/tensorboard"))
    event_files.push_back(entry.path());
  REQUIRE(event_files.size() == 1);
  const auto events = read_events(event_files[0]);
  REQUIRE(events.size() >= 2);
  CHECK(events[0].file_version == "brain.Event:2");
  for (size_t i = 2; i < events.size(); ++i) CHECK(events[i].step >= events[i - 1].step);
  const auto& last = events.back().scalars;
  CHECK(events.back().step == last_row_steps);
  for (const char* tag : {"episode/return_mean", "episode/length_mean", "loss/policy", "loss/value", "policy/entropy",
                          "train/lr", "train/policy_lag_mean", "perf/env_steps_per_s", "perf/predict_batch_mean"})
    CHECK_MESSAGE(last.count(tag) == 1, tag);
  // CartPole's return is its length; the window's mean return is metrics.csv's.
  CHECK(last.at("episode/length_mean") == doctest::Approx(last.at("episode/return_mean")));
  std::ifstream rows(dir + "/metrics.csv");
  std::string row, last_row;
  while (std::getline(rows, row)) last_row = row;
  std::stringstream cells(last_row);
  std::string cell;
  for (int column = 0; column <= 4; ++column) std::getline(cells, cell, ',');  // mean_return
  CHECK(last.at("episode/return_mean") == doctest::Approx(std::stod(cell)).epsilon(1e-4));
  CHECK(last.at("train/lr") > 0.f);
  CHECK(r.output.find("BLAS:") != std::string::npos);
}

TEST_CASE("troupe train solves CartPole-v1 with PPO from configs/cartpole_ppo.yaml (confirmed)") {
  const std::string dir = fresh_dir("e2e_ppo");
  // Bounded: a run that has not solved within 120 s fails the test.
  // No progress row before the solve (log.progress_seconds 600): the row
  // written at the stop is the only one.
  const auto s = train_and_summarise(std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole_ppo.yaml" +
                                         " --set run.stop.wall_seconds=120 --set log.progress=false" +
                                         " --set log.progress_seconds=600 --set log.tensorboard=false",
                                     dir);
  CHECK_FALSE(std::filesystem::exists(dir + "/tensorboard"));
  CHECK(s["solved"] == true);
  CHECK(s["confirmations"].get<int>() >= 1);
  CHECK(s["confirmed_return"].get<double>() >= 475.0);
  CHECK(s["mean_return_at_target"].get<double>() >= 475.0);
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  // PPO: 10 epochs of 4 minibatches (the config's algo.ppo), each an
  // update, for every batch trained
  // before the confirmed solve froze the parameters; batches after it are
  // refused (the one during which it froze, in part).
  const long batches = s["learner"]["batches"].get<long>();
  const long refused = s["updates_refused"].get<long>();
  CHECK(batches > 0);
  const long per_batch = 10 * 4;
  CHECK(s["updates"].get<long>() >= per_batch * (batches - refused));
  CHECK(s["updates"].get<long>() <= per_batch * (batches - refused) + per_batch - 1);
  CHECK(s["learner"]["busy_share"].get<double>() > 0);
  // That row has the owner's batching figure (it once said 0 there).
  std::ifstream csv(dir + "/metrics.csv");
  std::string header, row, last;
  std::getline(csv, header);
  while (std::getline(csv, row)) last = row;
  REQUIRE(!last.empty());
  const size_t batch_column = 5;  // wall_seconds,env_steps,env_steps_per_s,episodes,mean_return,mean_predict_batch
  std::stringstream cells(last);
  std::string cell;
  for (size_t i = 0; i <= batch_column; ++i) std::getline(cells, cell, ',');
  CHECK(std::stod(cell) >= 1.0);
  CHECK(std::stod(cell) == doctest::Approx(s["mean_predict_batch"].get<double>()).epsilon(0.1));
  std::ifstream resolved(dir + "/config.yaml");
  const std::string yaml((std::istreambuf_iterator<char>(resolved)), std::istreambuf_iterator<char>());
  CHECK(yaml.find("kind: ppo") != std::string::npos);
}

TEST_CASE("a run stopped by its step limit still trains or drops every sample") {
  for (int seed = 1; seed <= 3; ++seed) {
    const std::string dir = fresh_dir("e2e_steps" + std::to_string(seed));
    const auto r = run_troupe("train " + cartpole_config + " --run-dir " + dir +
                       " --set run.stop.env_steps=30000 --set run.stop.mean_return=100000" +
                       " --set log.progress=false --set run.seed=" + std::to_string(seed) +
                       // The agents ask through the owner's lane, and by messages in seed 3.
                       (seed == 3 ? " --set batching.lane=false" : ""));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["stop_reason"] == "env_steps");
    CHECK(s["solved"] == false);
    CHECK(s["seconds_to_target"].is_null());
    CHECK(s["env_steps"].get<long>() >= 30000);
    CHECK(s["samples_collected"].get<long>() ==
          s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  }
}

TEST_CASE("trained past its target, a run keeps its best policy: best.pt, named in summary.json, for eval, play and export --best") {
  const std::string dir = fresh_dir("e2e_best");
  // No reachable target; 1M env steps (some 3 s): the best evaluations run
  // within their 5 % of the time.
  const auto r = run_troupe("train " + cartpole_config + " --run-dir " + dir +
                            " --set run.stop.mean_return=100000 --set run.stop.env_steps=1000000" +
                            " --set log.progress_seconds=600");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  REQUIRE(s["best"].is_object());
  CHECK(s["best"]["checkpoint"] == dir + "/checkpoints/best.pt");
  CHECK(s["best"]["evaluated_episodes"] == 100);
  CHECK(s["best_evaluations"].get<int>() >= 1);
  // A best printed is better than every one before it, and the last one
  // printed is what best.pt holds.
  std::istringstream lines(r.output);
  double last = -1e300;
  int printed = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(" scored ");
    if (line.rfind("best: version ", 0) != 0 || at == std::string::npos) continue;
    const double score = std::stod(line.substr(at + 8));
    CHECK(score > last);
    last = score;
    ++printed;
  }
  REQUIRE(printed >= 1);
  CHECK(s["best"]["return_mean"].get<double>() == doctest::Approx(last).epsilon(1e-4));
  // It is not one of the checkpoints a resume starts from, nor pruned.
  CHECK(std::filesystem::exists(dir + "/checkpoints/best.pt"));
  // eval --best loads it: the version summary.json names.
  const auto eval = run_troupe("eval " + dir + " --best --episodes 10 --json " + dir + "/best_eval.json");
  INFO(eval.output);
  REQUIRE(eval.exit_code == 0);
  const auto e = read_json(dir + "/best_eval.json");
  CHECK(e["checkpoint"] == dir + "/checkpoints/best.pt");
  CHECK(e["version"] == s["best"]["version"]);
  // export --best writes the policy; play --best refuses a bad target with exit 2.
  const auto exported = run_troupe("export " + dir + " --best --out " + dir + "/best_policy.pt");
  INFO(exported.output);
  CHECK(exported.exit_code == 0);
  CHECK(std::filesystem::file_size(dir + "/best_policy.pt") > 0);
  const auto not_a_run = run_troupe("eval " + dir + "/checkpoints/best.pt --best");
  CHECK(not_a_run.exit_code == 2);
  CHECK(not_a_run.output.find("--best takes a run directory") != std::string::npos);
  const auto play_file = run_troupe("play " + dir + "/checkpoints/best.pt --best --episodes 1");
  CHECK(play_file.exit_code == 2);
}

TEST_CASE("a run that keeps no best policy says so to eval --best") {
  const std::string dir = fresh_dir("e2e_no_best");
  const auto s = train_and_summarise(cartpole_config + " --set checkpoint.best.episodes=0" +
                                         " --set run.stop.env_steps=30000 --set run.stop.mean_return=100000" +
                                         " --set log.progress=false",
                                     dir);
  CHECK(s["best"].is_null());
  CHECK(s["best_evaluations"] == 0);
  const auto eval = run_troupe("eval " + dir + " --best");
  CHECK(eval.exit_code == 2);
  CHECK(eval.output.find("no best policy") != std::string::npos);
}

TEST_CASE("32 agents: the rollout budget keeps the policy lag near two agents', and CartPole solves") {
  const std::string dir = fresh_dir("e2e_many_agents");
  const auto s = train_and_summarise(cartpole_config + " --set agents.count=32 --set log.progress=false" +
                                         " --set run.stop.wall_seconds=120",
                                     dir);
  CHECK(s["solved"] == true);
  // 32 agents of 2 rollouts in flight each would lag by ~60 updates; the
  // budget (4 in flight) keeps it near 3, and no trained sample is older
  // than the bound (8).
  CHECK(s["mean_policy_lag"].get<double>() < 5.0);
  CHECK(s["max_policy_lag"].get<long>() <= 8);
  CHECK(s["learner"]["acks_held"].get<long>() > 0);
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
}

TEST_CASE("a bad config exits with code 2 and names the key") {
  const auto r = run_troupe("train " + cartpole_config + " --set algo.gamma=7");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("algo.gamma") != std::string::npos);
  const auto missing = run_troupe("train /nonexistent.yaml");
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("no such config file") != std::string::npos);
  CHECK(run_troupe("train").exit_code == 2);
  CHECK(run_troupe("frobnicate").exit_code == 2);
}
}
