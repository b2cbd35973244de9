// Cluster mode with more than one policy over loopback: a learner (troupe
// serve, no agents of its own) whose workers' agents play for a
// population's members, for two policies of a game (of agents with the
// same spaces or different ones), or in self-play's league, over real TCP.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using troupe::tests::child_process;
using troupe::tests::learner_address;
using troupe::tests::read_file;
using troupe::tests::read_json;

namespace {

const std::string cluster_token = "policies-test-token";

// troupe serve CONFIG with no agents of its own, and `workers` workers of
// `agents` agents each; every process must end by itself with exit 0.
// Returns the learner's log.
std::string serve_with_workers(const std::string& dir, const std::string& config, std::vector<std::string> sets,
                               int workers, int agents) {
  std::vector<std::string> args{TROUPE_BINARY, "serve", std::string(TROUPE_SOURCE_DIR) + "/configs/" + config,
                                "--listen", "127.0.0.1:0", "--token", cluster_token, "--run-dir", dir,
                                "--set", "agents.count=0", "--set", "log.progress=false"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  child_process learner(args, dir + ".learner.log");
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE_MESSAGE(!address.empty(), read_file(dir + ".learner.log"));
  std::vector<std::unique_ptr<child_process>> crew;
  for (int w = 1; w <= workers; ++w)
    crew.push_back(std::make_unique<child_process>(
        std::vector<std::string>{TROUPE_BINARY, "join", address, "--agents", std::to_string(agents), "--token",
                                 cluster_token, "--name", "w" + std::to_string(w), "--retry", "5"},
        dir + ".w" + std::to_string(w) + ".log"));
  const int code = learner.wait_exit(std::chrono::seconds(150));
  const std::string log = read_file(dir + ".learner.log");
  INFO(log);
  REQUIRE(code == 0);
  for (int w = 1; w <= workers; ++w) {
    INFO(read_file(dir + ".w" + std::to_string(w) + ".log"));
    CHECK(crew[size_t(w - 1)]->wait_exit(std::chrono::seconds(20)) == 0);
  }
  return log;
}

// The workers that stepped a policy's (or member's) environments.
std::set<std::string> nodes_that_stepped(const nlohmann::json& summary) {
  std::set<std::string> names;
  for (const auto& n : summary["nodes"])
    if (n["env_steps"].get<long>() > 0) names.insert(n["node"].get<std::string>());
  return names;
}

void check_policy_accounting(const nlohmann::json& s) {
  CHECK(s["samples_collected"].get<long>() > 0);
  CHECK(s["samples_collected"].get<long>() == s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("cluster: a population's members train on workers' agents, dealt in turn") {
  const std::string dir = troupe::tests::fresh_dir("cluster_pbt");
  serve_with_workers(dir, "cartpole_ppo_pbt.yaml",
                     {"pbt={population: 2, interval_env_steps: 10000, hyperparams: {algo.lr: {min: 0.0001, max: 0.01, "
                      "scale: log, init: [0.0003, 0.003]}}}",
                      "run.stop.env_steps=120000", "run.stop.wall_seconds=90"},
                     2, 1);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["cluster"]["workers_joined"] == 2);
  // The first worker to join plays for member 0, the second for member 1:
  // each member's steps are one worker's alone.
  const auto m0 = read_json(dir + "/members/0/summary.json");
  const auto m1 = read_json(dir + "/members/1/summary.json");
  const std::set<std::string> n0 = nodes_that_stepped(m0), n1 = nodes_that_stepped(m1);
  REQUIRE(n0.size() == 1);
  REQUIRE(n1.size() == 1);
  std::set<std::string> both = n0;
  both.insert(n1.begin(), n1.end());
  CHECK(both == std::set<std::string>{"w1", "w2"});
  check_policy_accounting(m0);
  check_policy_accounting(m1);
  // The population decided as it does on one node.
  CHECK(s["pbt"]["decisions"].get<long>() >= 2);
  CHECK(read_file(dir + "/pbt.csv").find("member") != std::string::npos);
}

TEST_CASE("cluster: two policies of Connect Four play each other on a worker, the other seat moved on the learner") {
  const std::string dir = troupe::tests::fresh_dir("cluster_policies");
  serve_with_workers(dir, "connect_four_selfplay.yaml",
                     {"selfplay.enabled=false", "model.kind=mlp", "model.hidden=[64]", "env.envs_per_agent=8",
                      "policies={red: {agents: [player_0]}, yellow: {agents: [player_1], algo: {lr: 0.001}}}",
                      "run.stop.env_steps=60000", "run.stop.wall_seconds=90"},
                     1, 2);
  const auto s = read_json(dir + "/summary.json");
  // Every move of the other seat in the worker's games was made here.
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"] == 0);
  for (const std::string name : {"red", "yellow"}) {
    CAPTURE(name);
    const auto p = read_json(dir + "/policies/" + name + "/summary.json");
    CHECK(nodes_that_stepped(p) == std::set<std::string>{"w1"});
    check_policy_accounting(p);
    CHECK(p["episodes"].get<long>() > 0);
  }
}

TEST_CASE("cluster: Signal-v0's sender and receiver, of different spaces, learn a code on a worker") {
  // Each policy's agents are on the worker; the other seat's moves (in the
  // other agent's spaces) are made on the learner and checked there against
  // that seat's shapes.
  const std::string dir = troupe::tests::fresh_dir("cluster_signal");
  serve_with_workers(dir, "signal_policies.yaml", {"run.stop.wall_seconds=90"}, 1, 2);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "solved");
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"] == 0);
  for (const std::string name : {"sender", "receiver"}) {
    CAPTURE(name);
    const auto p = read_json(dir + "/policies/" + name + "/summary.json");
    CHECK(nodes_that_stepped(p) == std::set<std::string>{"w1"});
    check_policy_accounting(p);
  }
}

TEST_CASE("cluster: three policies of a three-agent game on a worker, each move routed to its agent's policy") {
  // Nim3-v0, a policy a seat: a worker's agent of each policy asks the
  // learner for the two other seats' moves, which two different policies
  // make (the request names each move's agent).
  const std::string dir = troupe::tests::fresh_dir("cluster_nim_policies");
  serve_with_workers(dir, "nim3.yaml",
                     {"policies={a: {agents: [player_0]}, b: {agents: [player_1]}, c: {agents: [player_2]}}",
                      "run.stop.mean_return=2", "run.stop.env_steps=150000", "run.stop.wall_seconds=90"},
                     1, 3);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"] == 0);
  for (const std::string name : {"a", "b", "c"}) {
    CAPTURE(name);
    const auto p = read_json(dir + "/policies/" + name + "/summary.json");
    CHECK(nodes_that_stepped(p) == std::set<std::string>{"w1"});
    check_policy_accounting(p);
    CHECK(p["updates"].get<long>() > 0);
  }
}

TEST_CASE("cluster: a team's rows (every agent of each game) pass the learner's checks of a worker's messages") {
  // 16 games of three agents are 48 rows an agent: a learner that checked
  // them against env.envs_per_agent would reject every request.
  const std::string dir = troupe::tests::fresh_dir("cluster_team");
  serve_with_workers(dir, "spread.yaml", {"run.stop.env_steps=300000", "run.stop.wall_seconds=90"}, 1, 1);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  CHECK(s["cluster"]["messages_rejected"] == 0);
  CHECK(nodes_that_stepped(s) == std::set<std::string>{"w1"});
  check_policy_accounting(s);
}

TEST_CASE("cluster: two teams on a worker, the other team's moves (two agents a game) made on the learner") {
  const std::string dir = troupe::tests::fresh_dir("cluster_teams");
  serve_with_workers(dir, "contest_teams.yaml", {"run.stop.env_steps=300000", "run.stop.wall_seconds=90"}, 1, 2);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"] == 0);
  for (const std::string name : {"red", "blue"}) {
    CAPTURE(name);
    const auto p = read_json(dir + "/policies/" + name + "/summary.json");
    CHECK(nodes_that_stepped(p) == std::set<std::string>{"w1"});
    check_policy_accounting(p);
  }
}

TEST_CASE("cluster: self-play on a worker draws from the learner's league and its games move the ratings") {
  const std::string dir = troupe::tests::fresh_dir("cluster_selfplay");
  serve_with_workers(dir, "connect_four_selfplay.yaml",
                     {"selfplay.snapshot_every_updates=20", "model.kind=mlp", "model.hidden=[64]",
                      "env.envs_per_agent=8", "run.stop.env_steps=60000", "run.stop.wall_seconds=90"},
                     1, 2);
  const auto s = read_json(dir + "/summary.json");
  // No agent of the learner's own: every game the league counted was a
  // worker's, against itself, its snapshots and the built-in players (Connect
  // Four's read the board from the observation, so they play on the learner's node).
  const auto& league = s["selfplay"];
  CHECK(league["self_games"].get<long>() > 0);
  long snapshot_games = 0, builtin_games = 0;
  for (const auto& p : league["pool"]) snapshot_games += p["games"].get<long>();
  for (const auto& b : league["builtins"]) builtin_games += b["games"].get<long>();
  CHECK(snapshot_games > 0);
  CHECK(builtin_games > 0);
  CHECK(league["snapshots_taken"].get<long>() >= 1);
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  check_policy_accounting(s);
}

TEST_CASE("cluster: two policies on a worker, each drawing from a league of the other's snapshots on the learner") {
  const std::string dir = troupe::tests::fresh_dir("cluster_policy_leagues");
  serve_with_workers(dir, "connect_four_selfplay.yaml",
                     {"policies={red: {agents: [player_0]}, yellow: {agents: [player_1]}}",
                      "selfplay.snapshot_every_updates=20", "model.kind=mlp", "model.hidden=[64]",
                      "env.envs_per_agent=8", "run.stop.env_steps=60000", "run.stop.wall_seconds=90"},
                     1, 2);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"].get<long>() == 0);
  for (const std::string name : {"red", "yellow"}) {
    INFO(name);
    const auto own = read_json(dir + "/policies/" + name + "/summary.json");
    check_policy_accounting(own);
    CHECK(nodes_that_stepped(own) == std::set<std::string>{"w1"});
    // The worker's games met the other policy's latest parameters and its
    // snapshots, and each moved this policy's ratings.
    const auto& league = own["selfplay"];
    CHECK(league["self_games"].get<long>() > 0);
    long snapshot_games = 0;
    for (const auto& p : league["pool"]) snapshot_games += p["games"].get<long>();
    CHECK(snapshot_games > 0);
    CHECK(league["games"].get<long>() >= league["self_games"].get<long>() + snapshot_games);
  }
}

TEST_CASE("cluster: self-play of a game of three agents on a worker: a snapshot moves both other seats on the learner") {
  const std::string dir = troupe::tests::fresh_dir("cluster_nim3");
  serve_with_workers(dir, "nim3.yaml",
                     {"selfplay.enabled=true", "selfplay.snapshot_every_updates=20", "run.stop.mean_return=2",
                      "run.stop.env_steps=60000", "run.stop.wall_seconds=90"},
                     1, 2);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  const auto& league = s["selfplay"];
  long snapshot_games = 0;
  for (const auto& p : league["pool"]) snapshot_games += p["games"].get<long>();
  CHECK(snapshot_games > 0);
  CHECK(league["self_games"].get<long>() > 0);
  // Each of the worker's games asks for two other seats' moves a round:
  // checked on the learner against the other seats' shapes, none refused.
  CHECK(s["cluster"]["opponent_moves"].get<long>() > 0);
  CHECK(s["cluster"]["messages_rejected"] == 0);
  CHECK(nodes_that_stepped(s) == std::set<std::string>{"w1"});
  check_policy_accounting(s);
}

TEST_CASE("cluster: a built-in player that searches the game's own state, drawn by the learner's league, plays in the worker's games") {
  // tic-tac-toe in Python: its alpha-beta players search copies of the
  // game, which lives on the worker; the league on the learner draws them
  // and hands each such game back to the worker with the player's seed.
  const std::string dir = troupe::tests::fresh_dir("cluster_handed_over");
  const std::string log = serve_with_workers(
      dir, "connect_four_selfplay.yaml",
      {"env.id=python:tictactoe:make", "env.python_path=[" + std::string(TROUPE_SOURCE_DIR) + "/examples/python_game]",
       "model.kind=mlp", "selfplay.builtin=[alphabeta:1,alphabeta:2]", "selfplay.builtin_probability=0.5",
       "selfplay.snapshot_every_updates=20", "env.envs_per_agent=8", "run.stop.env_steps=20000",
       "run.stop.wall_seconds=90"},
      1, 2);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  CHECK(s["agent_restarts"] == 0);  // no handover the worker could not take
  CHECK(s["cluster"]["messages_rejected"] == 0);
  CHECK(nodes_that_stepped(s) == std::set<std::string>{"w1"});
  check_policy_accounting(s);
  // Both searchers played and were rated, about half the games between them.
  const auto& league = s["selfplay"];
  long builtin_games = 0;
  for (const auto& b : league["builtins"]) {
    INFO(b.dump());
    CHECK(b["games"].get<long>() > 0);
    builtin_games += b["games"].get<long>();
  }
  CHECK(builtin_games > league["games"].get<long>() / 4);
  // The searcher played its own moves, not whatever the rows held: this
  // early the learner scores well below even against depth 2 (a player of
  // random moves would score about 0.5 over both seats).
  for (const auto& b : league["builtins"])
    if (b["name"] == "alphabeta:2") CHECK(b["learner_score"].get<double>() < 0.4);
}
}
