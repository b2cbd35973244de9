// Self-play end to end: configs/connect_four_selfplay.yaml trains, keeps
// its pool and ratings, checkpoints, resumes with both restored, and its
// policy is evaluated seat by seat against built-in and snapshot opponents;
// exported, it plays troupe eval's games in PyTorch on a board of the test's.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"
#include "tests/python_torch.hpp"

using namespace troupe::tests;

namespace {
// Seat `seat` of an eval --opponent report played `games` games, counted once each.
void check_seat(const nlohmann::json& report, const std::string& seat, int games) {
  const auto& s = report["seats"][seat];
  CHECK(s["wins"].get<int>() + s["draws"].get<int>() + s["losses"].get<int>() == games);
  CHECK(s["win_rate_95"][0].get<double>() <= s["win_rate"].get<double>());
  CHECK(s["win_rate_95"][1].get<double>() >= s["win_rate"].get<double>());
}

// The value after `key ` in `text`, up to the next space or line's end.
std::string word_after(const std::string& text, const std::string& key) {
  const size_t at = text.find(key + " ");
  if (at == std::string::npos) return "";
  const size_t from = at + key.size() + 1;
  return text.substr(from, text.find_first_of(" \n", from) - from);
}

// The run's policy exported and played in PyTorch alone on a board written
// in tests/e2e/connect_four_rules.py: it plays legal moves and beats random
// as troupe eval's greedy games did (`vs_random`, 100 a seat), and against
// a scripted player without chance, where each seat's game is one line, it
// plays troupe eval's line: the same result in the same number of moves.
void check_export_plays_as_eval(const std::string& dir, const nlohmann::json& vs_random) {
  const std::string source = TROUPE_SOURCE_DIR;
  const std::string policy = dir + "/exported.pt";
  auto r = run_troupe("export " + dir + " --out " + policy);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  if (!troupe::tests::python_has_torch()) {
    MESSAGE("the exported policy's games are skipped: /usr/bin/python3 has no torch (apt-get install python3-torch)");
    return;
  }
  const std::string play = "/usr/bin/python3 " + source + "/tests/e2e/play_exported_connect_four.py " + policy;
  r = run_command(play + " random 100");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);  // no full column chosen
  for (const std::string seat : {"first", "second"}) {
    CAPTURE(seat);
    const std::string line = r.output.substr(r.output.find(seat + " wins"));
    const int wins = std::stoi(word_after(line, "wins"));
    // Other random games than eval's: within 15 of its wins (the standard
    // error of 100 games at 85 % is 3.6).
    CHECK(std::abs(wins - vs_random["seats"][seat]["wins"].get<int>()) <= 15);
  }
  CHECK(std::stoi(word_after(r.output, "first wins")) >= 80);

  const std::string json = dir + "/steady.json";
  const auto e = run_command("PYTHONPATH=" + source + "/tests/e2e " + TROUPE_BINARY + " eval " + dir +
                             " --greedy --episodes 1 --opponent python:connect_four_rules:steady --json " + json);
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  const auto troupe_line = read_json(json);
  r = run_command(play + " steady");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const std::string seat : {"first", "second"}) {
    CAPTURE(seat);
    const std::string line = r.output.substr(r.output.find(seat + " result"));
    const auto& troupe_seat = troupe_line["seats"][seat];
    const std::string troupe_result = troupe_seat["wins"] == 1 ? "win" : troupe_seat["losses"] == 1 ? "loss" : "draw";
    CHECK(word_after(line, "result") == troupe_result);
    CHECK(std::stod(word_after(line, "moves")) == troupe_seat["length_mean"].get<double>());
  }
}
}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("self-play: Connect Four trains against its snapshots, checkpoints, resumes with its league, evaluates per seat") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/connect_four_selfplay.yaml";
  const std::string dir = fresh_dir("e2e_selfplay");
  const std::string quick = " --set selfplay.snapshot_every_updates=100 --set selfplay.pool_size=3"
                            " --set checkpoint.every_seconds=0.5 --set log.progress=false";
  auto r = run_troupe("train " + config + " --run-dir " + dir + " --set run.stop.env_steps=400000" + quick);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  check_accounting(s);
  const auto& league = s["selfplay"];
  REQUIRE(league.is_object());
  const long taken = league["snapshots_taken"].get<long>(), games = league["games"].get<long>();
  CHECK(taken >= 4);
  CHECK(games > 1000);
  CHECK(league["self_games"].get<long>() > 0);
  CHECK(league["self_games"].get<long>() < games);
  REQUIRE(league["pool"].size() == 3);  // the newest three
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/selfplay/snapshots"))
    files.insert(e.path().filename().string());
  std::set<std::string> pool;
  for (const auto& p : league["pool"]) pool.insert(std::to_string(p["id"].get<long>()) + ".pt");
  CHECK(files == pool);  // the snapshots that left the pool left the disk
  CHECK(contains(read_file(dir + "/metrics.csv"), "clip_fraction,elo,score_vs_pool,snapshots\n"));
  // It learned: greedy, it beats a random player from the first seat.
  r = run_troupe("eval " + dir + " --greedy --episodes 100 --opponent random --json " + dir + "/random.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_random = read_json(dir + "/random.json");
  check_seat(vs_random, "first", 100);
  check_seat(vs_random, "second", 100);
  CHECK(vs_random["seats"]["first"]["wins"].get<int>() >= 80);
  check_export_plays_as_eval(dir, vs_random);

  // Resumed: the pool and the ratings go on from where they were.
  r = run_troupe("train --resume " + dir + " --set run.stop.env_steps=600000" + quick);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.output, "resuming from"));
  s = read_json(dir + "/summary.json");
  check_accounting(s);
  CHECK(s["selfplay"]["games"].get<long>() > games);
  CHECK(s["selfplay"]["snapshots_taken"].get<long>() > taken);

  // Against a snapshot of the pool, and a built-in searcher, seat by seat.
  const long id = s["selfplay"]["pool"][0]["id"].get<long>();
  r = run_troupe("eval " + dir + " --episodes 30 --opponent snapshot:" + std::to_string(id) + " --json " + dir +
                 "/snapshot.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_snapshot = read_json(dir + "/snapshot.json");
  check_seat(vs_snapshot, "first", 30);
  check_seat(vs_snapshot, "second", 30);
  r = run_troupe("eval " + dir + " --greedy --episodes 10 --seat second --opponent builtin:alphabeta:2 --json " +
                 dir + "/alphabeta.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_search = read_json(dir + "/alphabeta.json");
  check_seat(vs_search, "second", 10);
  CHECK_FALSE(vs_search["seats"].contains("first"));

  // Opponents that are not there, or not opponents, are refused naming them.
  r = run_troupe("eval " + dir + " --episodes 2 --opponent snapshot:999");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "snapshot:999"));
  std::string pool_ids;  // the user is told which there are
  for (const auto& p : s["selfplay"]["pool"]) pool_ids += (pool_ids.empty() ? "" : ", ") + std::to_string(p["id"].get<long>());
  CHECK(contains(r.output, "the pool holds " + pool_ids + " ("));
  r = run_troupe("eval " + dir + " --episodes 2 --opponent builtin:minimax");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "'minimax' is not an opponent"));
}

TEST_CASE("self-play: a PettingZoo AEC game in Python trains from the Connect Four config with model.kind=mlp") {
  // tic-tac-toe (examples/python_game/tictactoe.py): its alpha-beta players
  // search copies of the Python game; the perfect player is a scripted one.
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/connect_four_selfplay.yaml";
  const std::string games = " --set env.python_path=[" + std::string(TROUPE_SOURCE_DIR) + "/examples/python_game]";
  const std::string dir = fresh_dir("e2e_selfplay_python");
  const auto s = trained_to_budget(config + games +
                                       " --set env.id=python:tictactoe:make --set model.kind=mlp --set run.stop.env_steps=100000"
                                       " --set selfplay.snapshot_every_updates=100 --set log.progress=false",
                                   dir);
  const auto& league = s["selfplay"];
  REQUIRE(league.is_object());
  CHECK(league["snapshots_taken"].get<long>() >= 2);
  long search_games = 0;
  for (const auto& b : league["builtins"])
    if (b["name"] == "alphabeta:5") search_games = b["games"].get<long>();
  CHECK(search_games > 20);  // the deepest searcher was drawn and played its games
  // Greedy, it beats a random player from the first seat already (at 80k
  // env steps, seeds 1-4: 90-96 of 100).
  auto r = run_troupe("eval " + dir + " --greedy --episodes 100 --opponent random --json " + dir + "/random.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_random = read_json(dir + "/random.json");
  check_seat(vs_random, "first", 100);
  check_seat(vs_random, "second", 100);
  CHECK(vs_random["seats"]["first"]["wins"].get<int>() >= 80);
  // The perfect player never loses: every game is a draw or its win.
  r = run_troupe("eval " + dir + " --episodes 40 --opponent python:tictactoe:perfect --json " + dir + "/perfect.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_perfect = read_json(dir + "/perfect.json");
  check_seat(vs_perfect, "first", 40);
  check_seat(vs_perfect, "second", 40);
  CHECK(vs_perfect["seats"]["first"]["wins"].get<int>() == 0);
  CHECK(vs_perfect["seats"]["second"]["wins"].get<int>() == 0);
  CHECK(vs_perfect["opponent_source"] == "python:tictactoe:perfect");
  r = run_troupe("eval " + dir + " --episodes 10 --opponent builtin:alphabeta:2 --json " + dir + "/search.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  check_seat(read_json(dir + "/search.json"), "second", 10);
  // A game that raises now and then: its agent restarts, the run goes on,
  // and no rollout or game is counted twice. The league rates a game when it
  // ends; the episode count takes it when its agent reports the rollout it
  // ended in, so a failed agent's unreported rollout (16 steps of 32 games,
  // at most one end per game and step, and the failing step) is rated but
  // not counted: at most 32 x 17 games per restart, never the other way.
  const std::string failing = fresh_dir("e2e_selfplay_python_failing");
  r = run_troupe("train " + config + " --run-dir " + failing + " --set env.python_path=[" +
                 std::string(TROUPE_SOURCE_DIR) + "/tests/bridges/python," + std::string(TROUPE_SOURCE_DIR) +
                 "/examples/python_game] --set env.id=python:aec_test_games:countdown"
                 " --set 'env.kwargs={raise_on_move: 1000}' --set model.kind=mlp --set run.stop.env_steps=60000"
                 " --set selfplay.snapshot_every_updates=50 --set agents.max_restarts=100 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.output, "the test's countdown raises"));
  const auto f = read_json(failing + "/summary.json");
  check_accounting(f);
  const long restarts = f["agent_restarts"].get<long>(), episodes = f["episodes"].get<long>();
  const long rated = f["selfplay"]["games"].get<long>();
  CHECK(restarts >= 2);
  CHECK(rated >= episodes);
  CHECK(rated <= episodes + restarts * 32 * 17);

  // A single-agent Python environment cannot be self-played; said by name.
  r = run_troupe("train " + config + " --run-dir " + fresh_dir("e2e_selfplay_cartpole") +
                 " --set env.id=python:cartpole_py:CartPole --set model.kind=mlp --set env.python_path=[" +
                 std::string(TROUPE_SOURCE_DIR) + "/examples/python_env] --set run.stop.env_steps=1000");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "not a PettingZoo game"));
}

TEST_CASE("self-play: DuelPong-v0, a simultaneous-move game, against its snapshots and the tracking player") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/connect_four_selfplay.yaml";
  const std::string dir = fresh_dir("e2e_selfplay_pong");
  auto r = run_troupe("train " + config + " --run-dir " + dir +
                      " --set env.id=DuelPong-v0 --set model.kind=mlp --set selfplay.builtin=[random,track]"
                      " --set run.stop.env_steps=100000 --set selfplay.snapshot_every_updates=100"
                      " --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  check_accounting(s);
  CHECK(s["episodes"].get<long>() == s["selfplay"]["games"].get<long>());
  CHECK(s["selfplay"]["snapshots_taken"].get<long>() >= 2);
  long tracked = 0;
  for (const auto& b : s["selfplay"]["builtins"])
    if (b["name"] == "track") tracked = b["games"].get<long>();
  CHECK(tracked > 10);
  r = run_troupe("eval " + dir + " --episodes 20 --opponent builtin:track --json " + dir + "/track.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto vs_track = read_json(dir + "/track.json");
  check_seat(vs_track, "first", 20);
  check_seat(vs_track, "second", 20);
  r = run_troupe("eval " + dir + " --episodes 2 --opponent builtin:alphabeta:2");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "plays Connect Four"));
}

TEST_CASE("self-play between teams: Contest-v0's red team plays a league of its own snapshots as the blue team") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/contest_teams.yaml";
  const std::string dir = fresh_dir("e2e_team_selfplay");
  // The two-policy config made one team's: --set 'policies={}' clears its policies.
  const std::string team = " --set 'policies={}' --set env.seat=all --set 'env.team=[red_*]' --set selfplay.enabled=true";
  const auto s = trained_to_budget(
      config + team + " --set selfplay.snapshot_every_updates=200 --set run.stop.env_steps=3000000 --set log.progress=false",
      dir);
  const auto& league = s["selfplay"];
  REQUIRE(league.is_object());
  CHECK(league["snapshots_taken"].get<long>() >= 4);
  CHECK(league["self_games"].get<long>() > 0);
  long snapshot_games = 0;
  for (const auto& p : league["pool"]) snapshot_games += p["games"].get<long>();
  CHECK(snapshot_games > 0);
  // It learned: greedy, against a random blue team (env.opponent), which
  // breaks even against a random red one (measured at this budget, seeds
  // 1-3: 0.39-0.43 an agent).
  auto r = run_troupe("eval " + dir + " --greedy --episodes 500 --json " + dir + "/random.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_json(dir + "/random.json")["return_mean"].get<double>() > 0.2);
  // Against one of its snapshots, playing blue.
  const long id = league["pool"][0]["id"].get<long>();
  r = run_troupe("eval " + dir + " --episodes 100 --opponent snapshot:" + std::to_string(id) + " --json " + dir +
                 "/snapshot.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto m = read_json(dir + "/snapshot.json");
  CHECK(m["team"] == nlohmann::json::array({"red_0", "red_1"}));
  CHECK(m["wins"].get<int>() + m["draws"].get<int>() + m["losses"].get<int>() == 100);
}

TEST_CASE("self-play is refused where it cannot run, with the reason") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/connect_four_selfplay.yaml";
  auto r = run_troupe("train " + config + " --set env.id=CartPole-v1");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "self-play needs a game that the policy plays from a seat, its snapshots playing the others (ConnectFour-v0, DuelPong-v0"));
  r = run_troupe("train " + config + " --set run.deterministic=true");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "selfplay.enabled"));
  // A team leaves seats for its snapshots only when it is not every agent.
  const std::string contest = std::string(TROUPE_SOURCE_DIR) + "/configs/contest_teams.yaml --set 'policies={}' "
                              "--set selfplay.enabled=true --set env.seat=all";
  r = run_troupe("train " + contest);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "leaves no seat for its snapshots"));
  r = run_troupe("train " + contest + " --set 'env.team=[red_*, blue_*]'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "key 'env.team': names every agent of Contest-v0"));
}
}
