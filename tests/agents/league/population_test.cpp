// Population-based training's decisions without actors: first draws and
// explored values inside their ranges, on their scales; truncation's bottom
// and top fractions, ties included; seeded decisions that reproduce; the
// state written and read back, and refused when it is not this population's.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "agents/league/population.hpp"

using troupe::agents::hyperparams;
using troupe::agents::population;

namespace {

troupe::run::pbt_config pbt_settings(int members) {
  troupe::run::pbt_config c;
  c.population = members;
  c.hyperparams["algo.lr"] = {1e-6, 0.1, true, 1e-6, 2e-6};
  c.hyperparams["algo.entropy_coef"] = {0.0, 0.5, false, 0.0, 0.5};
  return c;
}

const double no_score_yet = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_SUITE("agents") {
TEST_CASE("population: first draws inside init, explored values inside [min, max], on their scales") {
  const population p(pbt_settings(4), 7);
  for (int m = 0; m < 4; ++m) {
    const hyperparams h = p.initial(m);
    CHECK(h.at("algo.lr") >= 1e-6);
    CHECK(h.at("algo.lr") <= 2e-6);
    CHECK(h.at("algo.entropy_coef") >= 0.0);
    CHECK(h.at("algo.entropy_coef") <= 0.5);
  }
  CHECK(p.initial(0) != p.initial(1));  // each member its own draw
  CHECK(p.initial(2) == population(pbt_settings(4), 7).initial(2));

  // Resampling only: log-uniform over [1e-6, 0.1] puts half the draws below
  // its geometric middle, 10^-3.5; a linear scale puts half below 0.25.
  auto c = pbt_settings(4);
  c.resample_probability = 1.0;
  const population resampling(c, 1);
  std::mt19937_64 rng(3);
  int low_lr = 0, low_entropy = 0;
  const int draws = 4000;
  for (int i = 0; i < draws; ++i) {
    const hyperparams h = resampling.explore({{"algo.lr", 0.01}, {"algo.entropy_coef", 0.1}}, rng);
    REQUIRE(h.at("algo.lr") >= 1e-6);
    REQUIRE(h.at("algo.lr") <= 0.1);
    REQUIRE(h.at("algo.entropy_coef") >= 0.0);
    REQUIRE(h.at("algo.entropy_coef") <= 0.5);
    low_lr += h.at("algo.lr") < std::pow(10.0, -3.5);
    low_entropy += h.at("algo.entropy_coef") < 0.25;
  }
  // Binomial(4000, 0.5): 5 standard deviations are 158.
  CHECK(std::abs(low_lr - draws / 2) < 158);
  CHECK(std::abs(low_entropy - draws / 2) < 158);

  // Perturbing only: a value times 0.8 or 1.2, each about half the time,
  // clipped to its range at the edges.
  c.resample_probability = 0.0;
  const population perturbing(c, 1);
  int up = 0;
  for (int i = 0; i < 1000; ++i) {
    const double v = perturbing.explore({{"algo.lr", 0.01}, {"algo.entropy_coef", 0.1}}, rng).at("algo.lr");
    REQUIRE((v == doctest::Approx(0.008) || v == doctest::Approx(0.012)));
    up += v > 0.01;
  }
  CHECK(std::abs(up - 500) < 80);
  CHECK(perturbing.explore({{"algo.lr", 0.1}, {"algo.entropy_coef", 0.5}}, rng).at("algo.lr") <= 0.1);
  CHECK(perturbing.explore({{"algo.lr", 1e-6}, {"algo.entropy_coef", 0.0}}, rng).at("algo.lr") >= 1e-6);
}

TEST_CASE("population: truncation picks the bottom and top fractions; ties by member number; no score ranks last") {
  auto c = pbt_settings(8);
  c.truncation = 0.25;
  const population p(c, 1);
  auto r = p.rank({5, 1, 7, 3, 8, 2, 6, 4});
  CHECK(r.top == std::vector<int>{4, 2});
  CHECK(r.bottom == std::vector<int>{5, 1});
  // All equal: the order is the members', so top and bottom never overlap.
  r = p.rank({1, 1, 1, 1, 1, 1, 1, 1});
  CHECK(r.top == std::vector<int>{0, 1});
  CHECK(r.bottom == std::vector<int>{6, 7});
  r = p.rank({no_score_yet, 3, no_score_yet, 2, 5, 5, 1, 0});
  CHECK(r.top == std::vector<int>{4, 5});
  CHECK(r.bottom == std::vector<int>{0, 2});
  // At least one, at most half, of a population of two.
  const population pair(pbt_settings(2), 1);
  r = pair.rank({2, 1});
  CHECK(r.top == std::vector<int>{0});
  CHECK(r.bottom == std::vector<int>{1});
}

TEST_CASE("population: the bottom copies a better top member and explores from it; seeded decisions reproduce") {
  const population p(pbt_settings(4), 11);
  const std::vector<hyperparams> now = {p.initial(0), p.initial(1), p.initial(2), p.initial(3)};
  const std::vector<double> scores = {10, 40, 30, 20};
  // Member 0 is the bottom one (k = 1): it copies member 1, the top one.
  auto d = p.decide(5, 0, scores, now);
  CHECK(d.exploit);
  CHECK(d.source == 1);
  CHECK(d.before == now[0]);
  CHECK(d.after.size() == 2);
  const auto again = population(pbt_settings(4), 11).decide(5, 0, scores, now);
  CHECK(again.after == d.after);  // same seed, same decision number: the same draw
  // Another decision number draws afresh: of 50, the 44 % with a resampled
  // value are all different (about 22), the rest fall on the 4 products of
  // x0.8 and x1.2; the same draw every time would give 1.
  std::set<hyperparams> drawn;
  for (std::uint64_t i = 0; i < 50; ++i) drawn.insert(p.decide(i, 0, scores, now).after);
  CHECK(drawn.size() >= 12);
  // Not in the bottom: it keeps its own.
  for (int m : {1, 2, 3}) {
    d = p.decide(5, m, scores, now);
    CHECK(!d.exploit);
    CHECK(d.after == now[size_t(m)]);
  }
  // In the bottom by the members' order, but nobody scores better: it keeps.
  d = p.decide(0, 3, {20, 20, 20, 20}, now);
  CHECK(!d.exploit);
  // No score yet, and a top member with one: it copies.
  d = p.decide(0, 3, {20, 20, 20, no_score_yet}, now);
  CHECK(d.exploit);
  CHECK(d.source == 0);
}

TEST_CASE("population: its state written to JSON and read back; another population's refused") {
  const population p(pbt_settings(3), 2);
  auto s = p.first_state();
  REQUIRE(s.members.size() == 3);
  CHECK(s.members[1].next_decision_at == 20000);
  s.decisions = 9;
  s.exploits = 4;
  s.members[2].score = 31.5;
  s.members[2].lineage.push_back({7, 60000, 1});
  const auto back = p.state_from_json(population::state_json(s), "pbt.json");
  CHECK(back.decisions == 9);
  CHECK(back.exploits == 4);
  CHECK(back.members[2].values == s.members[2].values);
  CHECK(back.members[2].score == 31.5);
  CHECK(std::isnan(back.members[0].score));
  REQUIRE(back.members[2].lineage.size() == 1);
  CHECK(back.members[2].lineage[0].source == 1);
  CHECK(back.members[2].lineage[0].env_steps == 60000);
  // Another size, a value outside its range, not JSON: refused, naming the file.
  CHECK_THROWS_WITH(population(pbt_settings(4), 2).state_from_json(population::state_json(s), "RUN/pbt.json"),
                    doctest::Contains("RUN/pbt.json: 3 members, where pbt.population is 4"));
  s.members[0].values["algo.lr"] = 5.0;
  CHECK_THROWS_WITH(p.state_from_json(population::state_json(s), "RUN/pbt.json"), doctest::Contains("outside its range"));
  CHECK_THROWS_WITH(p.state_from_json("{\"decisions\": ", "RUN/pbt.json"), doctest::Contains("RUN/pbt.json: not a population's state"));
}
}
