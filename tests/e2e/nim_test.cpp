// A turn-based game of three agents end to end: configs/nim3.yaml trains
// Nim3-v0 against two random players from every seat, its greedy policy
// is evaluated seat by seat, each near the best reply to random players
// that tests/games/nim_game_test.cpp works out exactly; and a short
// self-play run, whose snapshots play both other seats, keeps its league.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("Nim3-v0: three agents, trained from its config against random players, evaluated from each seat") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/nim3.yaml";
  const std::string dir = fresh_dir("e2e_nim3");
  auto r = run_troupe("train " + config + " --run-dir " + dir + " --set log.progress=false --set run.stop.wall_seconds=150");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "solved");
  check_accounting(s);
  // Greedy from each seat against two random players. The best reply wins
  // 78 / 77 / 71 % (returns 0.67 / 0.65 / 0.56); random play 0.03 / 0.03 /
  // -0.06. The bars are the best less 0.1: 2000 games give a standard
  // error of about 0.015 (a return's spread is at most 0.75).
  r = run_troupe("eval " + dir + " --greedy --episodes 2000 --opponent random --json " + dir + "/random.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto report = read_json(dir + "/random.json");
  REQUIRE(report["seats"].size() == 3);
  const char* seats[] = {"first", "second", "third"};
  const double best[] = {0.674, 0.650, 0.563};
  for (int k = 0; k < 3; ++k) {
    CAPTURE(seats[k]);
    const auto& seat = report["seats"][seats[k]];
    CHECK(seat["agent"] == "player_" + std::to_string(k));
    CHECK(seat["wins"].get<int>() + seat["draws"].get<int>() + seat["losses"].get<int>() == 2000);
    CHECK(seat["draws"].get<int>() == 0);  // someone takes the last counter
    // A return is +1 or -0.5: the mean follows from the wins.
    CHECK(seat["mean_return"].get<double>() == doctest::Approx((seat["wins"].get<int>() * 1.5 - 1000) / 2000.0));
    CHECK(seat["mean_return"].get<double>() > best[k] - 0.1);
  }
  // One seat asked for, and a seat the game does not have.
  r = run_troupe("eval " + dir + " --episodes 50 --opponent random --seat third --json " + dir + "/third.json");
  REQUIRE(r.exit_code == 0);
  CHECK(read_json(dir + "/third.json")["seats"].size() == 1);
  r = run_troupe("eval " + dir + " --episodes 50 --opponent random --seat fourth");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "3 seats"));
  // (Several policies of it: tests/e2e/policies_test.cpp.)
}

TEST_CASE("Nim3-v0 self-play: a snapshot plays both other seats; the league and its ratings are kept") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/nim3.yaml";
  const std::string dir = fresh_dir("e2e_nim3_selfplay");
  const auto s = trained_to_budget(config +
                                       " --set selfplay.enabled=true --set selfplay.snapshot_every_updates=50"
                                       " --set selfplay.pool_size=3 --set run.stop.env_steps=300000 --set log.progress=false",
                                   dir);
  const auto& league = s["selfplay"];
  CHECK(league["snapshots_taken"].get<long>() >= 3);
  CHECK(league["games"].get<long>() > 10000);
  const long id = league["pool"][0]["id"].get<long>();
  auto r = run_troupe("eval " + dir + " --episodes 60 --opponent snapshot:" + std::to_string(id) + " --json " + dir +
                 "/snapshot.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_json(dir + "/snapshot.json")["seats"].size() == 3);
}

TEST_CASE("Nim3-v0 self-play with a GRU policy: each snapshot carries its own state per seat; it learns to beat random") {
  // The snapshots and the latest parameters play two seats each game, each
  // seat with its own recurrent state across the moves between
  // (agents/league/opponent_states.hpp). Random players score 0.03 / 0.03 / -0.06;
  // seeds 1-3 of this run scored 0.39 or more from every seat.
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/nim3.yaml";
  const std::string dir = fresh_dir("e2e_nim3_gru_selfplay");
  auto r = run_troupe("train " + config + " --run-dir " + dir +
                      " --set selfplay.enabled=true --set model.recurrent.kind=gru --set model.recurrent.size=32"
                      " --set run.stop.mean_return=2 --set run.stop.env_steps=150000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  check_accounting(s);
  CHECK(s["selfplay"]["snapshots_taken"].get<long>() >= 1);
  r = run_troupe("eval " + dir + " --greedy --episodes 1000 --opponent random --json " + dir + "/random.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto seats = read_json(dir + "/random.json")["seats"];
  REQUIRE(seats.size() == 3);
  for (const auto& [seat, record] : seats.items()) {
    CAPTURE(seat);
    CHECK(record["mean_return"].get<double>() > 0.2);
  }
}
}
