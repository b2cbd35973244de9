// agents/league/league.hpp: self-play's pool and Elo ratings, without actors.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <thread>
#include <vector>

#include "agents/league/league.hpp"

using namespace troupe;
using agents::league;

TEST_SUITE("agents") {
TEST_CASE("league: Elo on a hand-worked sequence of games") {
  agents::league_settings s;
  s.elo_k = 32;
  s.initial_rating = 1200;
  league l(s);
  std::vector<std::uint64_t> evicted;
  const std::uint64_t a = l.add(10, evicted);  // rated 1200, as the learner
  CHECK(a == 1);
  // Equal ratings: expected 0.5; a win moves both by 16.
  l.record(a, 1.0);
  CHECK(l.learner_rating() == doctest::Approx(1216));
  CHECK(l.pool()[0].rating == doctest::Approx(1184));
  // 1216 against 1184: expected 1 / (1 + 10^(-32/400)) = 0.5459219; a loss
  // moves the learner by 32 * -0.5459219 = -17.46950.
  l.record(a, 0.0);
  CHECK(l.learner_rating() == doctest::Approx(1216 - 17.46950).epsilon(1e-7));
  CHECK(l.pool()[0].rating == doctest::Approx(1184 + 17.46950).epsilon(1e-7));
  // A draw between 1198.53050 and 1201.46950: expected 0.4957705, +0.13534.
  l.record(a, 0.5);
  CHECK(l.learner_rating() == doctest::Approx(1198.66584).epsilon(1e-7));
  CHECK(agents::elo_expected(1600, 1200) == doctest::Approx(10.0 / 11.0));  // 400 points: 10 to 1
  // Games against the learner itself are counted, no rating moves.
  const double before = l.learner_rating();
  l.record(league::latest, 1.0);
  CHECK(l.learner_rating() == before);
  const league::state st = l.saved();
  CHECK(st.games == 4);
  CHECK(st.self_games == 1);
  CHECK(st.pool[0].games == 3);
  CHECK(st.pool[0].learner_score == doctest::Approx(1.5));
  CHECK(l.recent_score() == doctest::Approx(0.5));
}

TEST_CASE("league: Elo in a game of three seats, where an even opponent leaves the learner a third of the wins") {
  // Equal strengths: each of three seats wins a third of the games.
  CHECK(agents::elo_expected(1000, 1000, 3) == doctest::Approx(1.0 / 3.0));
  // The other 400 log10(2) points below: its two seats together weigh as
  // the learner's one.
  CHECK(agents::elo_expected(1000, 1000 - 400 * std::log10(2.0), 3) == doctest::Approx(0.5));
  CHECK(agents::elo_expected(1000, 1000, 2) == doctest::Approx(0.5));
  // A learner that wins one game in three against a snapshot of itself
  // stays level with it with seats 3. Read as a two-player game, the same
  // results put it 400 log10(2) = 120 points below its equal, and as every
  // new snapshot is rated as the learner, self-play would sink it without
  // end (a first run of Nim3-v0 did: -6056 after 360k games).
  for (int seats : {3, 2}) {
    agents::league_settings s;
    s.seats = seats;
    s.initial_rating = 1000;
    league l(s);
    std::vector<std::uint64_t> evicted;
    const std::uint64_t a = l.add(1, evicted);
    l.record(a, 1.0);  // 16 x (1 - 1/3) with three seats
    if (seats == 3) CHECK(l.learner_rating() == doctest::Approx(1000 + 16.0 * 2.0 / 3.0));
    for (int i = 0; i < 300; ++i) {
      l.record(a, 0.0);
      l.record(a, 0.0);
      l.record(a, 1.0);
    }
    const double gap = l.pool()[0].rating - l.learner_rating();
    if (seats == 3)
      CHECK(std::abs(gap) < 30);
    else
      CHECK(gap > 90);
  }
  agents::league_settings one;
  one.seats = 1;
  CHECK_THROWS_AS(league{one}, std::invalid_argument);
}

TEST_CASE("league: the pool keeps the newest snapshots; a new one is rated as the learner is") {
  agents::league_settings s;
  s.pool_size = 3;
  league l(s);
  std::vector<std::uint64_t> evicted;
  for (int v = 1; v <= 5; ++v) l.add(std::uint64_t(v * 100), evicted);
  CHECK(evicted == std::vector<std::uint64_t>{1, 2});
  const auto pool = l.pool();
  REQUIRE(pool.size() == 3);
  CHECK(pool[0].id == 3);
  CHECK(pool[2].version == 500);
  l.record(5, 1.0);
  l.record(1, 1.0);  // left the pool: counted, rates nothing
  CHECK(l.saved().games == 2);
  const std::uint64_t six = l.add(600, evicted);
  CHECK(l.pool().back().rating == doctest::Approx(l.learner_rating()));
  CHECK(six == 6);
}

TEST_CASE("league: draws follow latest_probability and the sampling, by a chi-square test") {
  agents::league_settings s;
  s.pool_size = 4;
  s.latest_probability = 0.4;
  league l(s);
  std::mt19937_64 rng(5);
  CHECK(l.draw(rng) == league::latest);  // an empty pool: always the learner
  std::vector<std::uint64_t> evicted;
  for (int i = 0; i < 4; ++i) l.add(std::uint64_t(i), evicted);
  const int n = 40000;
  std::map<std::uint64_t, int> seen;
  for (int i = 0; i < n; ++i) ++seen[l.draw(rng)];
  // Expected: 0.4 latest, 0.15 each snapshot. 4 degrees of freedom: the
  // 0.999 quantile is 18.47.
  const std::map<std::uint64_t, double> p = {{0, 0.4}, {1, 0.15}, {2, 0.15}, {3, 0.15}, {4, 0.15}};
  double chi2 = 0;
  for (const auto& [id, q] : p) chi2 += std::pow(seen[id] - n * q, 2) / (n * q);
  CHECK(chi2 < 18.47);

  // Prioritised: the learner has beaten snapshot 1 in 9 of 9 games, lost
  // all 9 to snapshot 2; 3 and 4 unplayed. Weights (1 - p)^2 with a game of
  // prior at 0.5: p1 = 9.5 / 10, p2 = 0.5 / 10, p3 = p4 = 0.5.
  agents::league_settings ps = s;
  ps.prioritized = true;
  ps.latest_probability = 0;
  league pl(ps);
  for (int i = 0; i < 4; ++i) pl.add(std::uint64_t(i), evicted);
  for (int i = 0; i < 9; ++i) {
    pl.record(1, 1.0);
    pl.record(2, 0.0);
  }
  const double w1 = 0.05 * 0.05, w2 = 0.95 * 0.95, w3 = 0.25, total = w1 + w2 + 2 * w3;
  std::map<std::uint64_t, int> drawn;
  for (int i = 0; i < n; ++i) ++drawn[pl.draw(rng)];
  CHECK(drawn[0] == 0);
  chi2 = 0;
  for (const auto& [id, w] : std::map<std::uint64_t, double>{{1, w1}, {2, w2}, {3, w3}, {4, w3}})
    chi2 += std::pow(drawn[id] - n * w / total, 2) / (n * w / total);
  CHECK(chi2 < 16.27);  // 3 degrees of freedom, 0.999
}

TEST_CASE("league: games recorded from many threads while snapshots are added: none lost") {
  for (int round = 0; round < 20; ++round) {
    agents::league_settings s;
    s.pool_size = 64;
    league l(s);
    std::vector<std::uint64_t> evicted;
    l.add(0, evicted);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&l, t] {
        std::mt19937_64 rng{std::uint64_t(t)};
        for (int i = 0; i < 2000; ++i) l.record(l.draw(rng), double(i % 3) / 2.0);
      });
    threads.emplace_back([&l] {
      std::vector<std::uint64_t> gone;
      for (int v = 1; v < 40; ++v) l.add(std::uint64_t(v), gone);
    });
    for (auto& t : threads) t.join();
    const league::state st = l.saved();
    CHECK(st.games == 8000);
    std::int64_t against_pool = 0;
    for (const auto& p : st.pool) against_pool += p.games;
    CHECK(against_pool + st.self_games == 8000);
    REQUIRE(st.pool.size() == 40);
  }
}

TEST_CASE("league: its state survives JSON; a damaged file is refused naming it") {
  agents::league_settings s;
  league l(s);
  std::vector<std::uint64_t> evicted;
  l.add(42, evicted);
  l.record(1, 1.0);
  const league::state back = agents::league_from_json(agents::league_json(l.saved()), "league.json");
  CHECK(back.learner_rating == doctest::Approx(l.learner_rating()));
  REQUIRE(back.pool.size() == 1);
  CHECK(back.pool[0].version == 42);
  CHECK(back.next_id == 2);
  league restored(s);
  restored.restore(back);
  CHECK(restored.saved().games == 1);
  CHECK_THROWS_WITH_AS(agents::league_from_json("{\"learner_rating\": 1}", "RUN/selfplay/league.json"),
                       doctest::Contains("RUN/selfplay/league.json"), std::runtime_error);
  CHECK_THROWS_WITH_AS(agents::league_from_json("{\"learner_rating\": 1, \"next_id\": 2, \"games\": 0, "
                                                "\"self_games\": 0, \"pool\": [{\"id\": 5, \"version\": 1, "
                                                "\"rating\": 1, \"games\": 0, \"learner_score\": 0}]}",
                                                "x.json"),
                       doctest::Contains("snapshot id 5"), std::runtime_error);
}
}

TEST_SUITE("agents") {
TEST_CASE("league: built-in players are drawn for their share, rated like snapshots, and restored by name") {
  agents::league_settings s;
  s.builtins = {"random", "alphabeta:2"};
  s.builtin_probability = 0.2;
  s.latest_probability = 0.5;
  league l(s);
  std::vector<std::uint64_t> evicted;
  l.add(1, evicted);
  std::mt19937_64 rng(8);
  const int n = 40000;
  std::map<std::uint64_t, int> seen;
  for (int i = 0; i < n; ++i) ++seen[l.draw(rng)];
  // 0.1 each built-in; of the other 0.8: 0.4 the learner, 0.4 the snapshot.
  const std::uint64_t b0 = league::first_builtin, b1 = league::first_builtin + 1;
  double chi2 = 0;
  for (const auto& [id, q] : std::map<std::uint64_t, double>{{b0, 0.1}, {b1, 0.1}, {0, 0.4}, {1, 0.4}})
    chi2 += std::pow(seen[id] - n * q, 2) / (n * q);
  CHECK(chi2 < 16.27);  // 3 degrees of freedom, 0.999
  CHECK(seen.size() == 4);
  l.record(b1, 0.0);  // the learner lost to alphabeta:2
  const league::state st = l.saved();
  REQUIRE(st.builtins.size() == 2);
  CHECK(st.builtins[1].builtin == "alphabeta:2");
  CHECK(st.builtins[1].rating == doctest::Approx(1008));  // equal ratings, K 16: +8 for the winner
  CHECK(l.learner_rating() == doctest::Approx(992));
  CHECK(l.recent_score() < 0);  // the pool's score counts snapshots alone
  // Restored under another list: the players it still names keep their record.
  agents::league_settings other = s;
  other.builtins = {"alphabeta:2", "alphabeta:4"};
  league back(other);
  back.restore(agents::league_from_json(agents::league_json(st), "league.json"));
  const league::state r = back.saved();
  REQUIRE(r.builtins.size() == 2);
  CHECK(r.builtins[0].builtin == "alphabeta:2");
  CHECK(r.builtins[0].id == league::first_builtin);
  CHECK(r.builtins[0].games == 1);
  CHECK(r.builtins[0].rating == doctest::Approx(1008));
  CHECK(r.builtins[1].games == 0);
}
}
