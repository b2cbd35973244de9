// Self-play end to end: configs/connect_four_selfplay.yaml trains, keeps
// its pool and ratings, checkpoints, resumes with both restored, and its
// policy is evaluated seat by seat against built-in and snapshot opponents.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

namespace {
// Seat `seat` of an eval --opponent report played `games` games, counted once each.
void check_seat(const nlohmann::json& report, const std::string& seat, int games) {
  const auto& s = report["seats"][seat];
  CHECK(s["wins"].get<int>() + s["draws"].get<int>() + s["losses"].get<int>() == games);
  CHECK(s["win_rate_95"][0].get<double>() <= s["win_rate"].get<double>());
  CHECK(s["win_rate_95"][1].get<double>() >= s["win_rate"].get<double>());
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
  r = run_troupe("eval " + dir + " --episodes 2 --opponent builtin:minimax");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "'minimax' is not an opponent"));
}

TEST_CASE("self-play is refused where it cannot run, with the reason") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/connect_four_selfplay.yaml";
  auto r = run_troupe("train " + config + " --set env.id=CartPole-v1");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "self-play needs a two-player turn-based game (ConnectFour-v0)"));
  r = run_troupe("train " + config + " --set run.deterministic=true");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "selfplay.enabled"));
}
}
