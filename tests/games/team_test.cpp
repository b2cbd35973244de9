// A team: several agents of one game played by one policy
// (games/seat_vector.hpp with env.seat all), and games of more than two
// agents with one seat learning; on a game written here whose rewards say
// which row's action reached which agent; and Spread-v0's rules
// (games/builtin/spread_game.hpp) on set states.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "catalog/players.hpp"
#include "games/builtin/contest_game.hpp"
#include "games/builtin/spread_game.hpp"
#include "games/seat_vector.hpp"

using namespace troupe;

namespace {

// Three agents, three rounds. Each round gives agent a 0.1 x its own action
// + 0.001 x (a + 1); the third round terminates the game. With `leaver`,
// that agent leaves after the first round (terminated) and the game goes on
// without it, refusing a non-zero action from it. Agent a observes [round,
// a, the sum of the others' previous actions].
class tally_game final : public games::simultaneous_env {
 public:
  explicit tally_game(int leaver = -1)
      : spec_{"Test/Tally", envs::space::box_space({3}, {0, 0, 0}, {3, 2, 6}), envs::space::discrete_space(4), 0},
        leaver_(leaver) {}
  const envs::env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 3; }
  std::string agent_name(int a) const override { return "t" + std::to_string(a); }
  void reset(std::uint64_t) override { round_ = 0, last_ = {0, 0, 0}; }
  void observe(int agent, float* o) const override {
    o[0] = float(round_);
    o[1] = float(agent);
    o[2] = float(last_[0] + last_[1] + last_[2] - last_[size_t(agent)]);
  }
  games::joint_result step(const float* a) override {
    if (round_ >= 3) throw std::logic_error("tally: stepped after its end");
    if (leaver_ >= 0 && round_ > 0 && a[leaver_] != 0) throw std::logic_error("tally: a departed agent's row is not 0");
    games::joint_result r;
    for (int i = 0; i < 3; ++i) {
      const bool gone = leaver_ == i && round_ > 0;
      r.rewards.push_back(gone ? 0.0 : 0.1 * a[i] + 0.001 * (i + 1));
      last_[size_t(i)] = int(a[i]);
    }
    if (leaver_ >= 0 && round_ == 0) {
      r.left.assign(3, 0);
      r.left[size_t(leaver_)] = games::joint_result::agent_terminated;
    }
    r.terminated = ++round_ == 3;
    return r;
  }

 private:
  envs::env_spec spec_;
  int leaver_;
  int round_ = 0;
  std::vector<int> last_{0, 0, 0};
};

// Plays 3; keeps which games it was asked for and the views it was shown.
struct plays_three final : games::opponents {
  std::vector<std::vector<int>> asked;
  std::vector<std::vector<float>> seen;
  std::vector<double> ended;
  void start_episode(int, std::uint64_t) override {}
  void act(const int* games, const int*, int rows, const float* obs, const std::uint8_t*, float* actions) override {
    asked.emplace_back(games, games + rows);
    for (int r = 0; r < rows; ++r) {
      seen.push_back({obs[3 * r], obs[3 * r + 1], obs[3 * r + 2]});
      actions[r] = 3;
    }
  }
  void end_episode(int, double learner_return) override { ended.push_back(learner_return); }
};

std::vector<std::unique_ptr<games::simultaneous_env>> tallies(int k, int leaver = -1) {
  std::vector<std::unique_ptr<games::simultaneous_env>> g;
  for (int i = 0; i < k; ++i) g.push_back(std::make_unique<tally_game>(leaver));
  return g;
}

// A scripted Spread-v0 team, written from the game's rules, reading only
// what each agent observes: with `assign`, every agent takes the landmark of
// the assignment of agents to landmarks with the least total distance (all
// six tried); without, each agent heads for its own nearest landmark. Each
// step moves an agent one cell towards its landmark, x first.
std::vector<float> scripted_spread(const std::vector<std::vector<float>>& views, bool assign) {
  const int n = 3;
  // Agent i's cell and landmark l's offset from it, in cells.
  const auto offset = [&](int i, int l, int axis) { return int(std::lround(views[size_t(i)][size_t(2 + 2 * l + axis)] * 4)); };
  const auto dist = [&](int i, int l) { return std::abs(offset(i, l, 0)) + std::abs(offset(i, l, 1)); };
  std::vector<int> target(n);
  if (assign) {
    std::vector<int> perm{0, 1, 2}, best;
    int best_cost = 1 << 30;
    do {
      int cost = 0;
      for (int i = 0; i < n; ++i) cost += dist(i, perm[size_t(i)]);
      if (cost < best_cost) best_cost = cost, best = perm;
    } while (std::next_permutation(perm.begin(), perm.end()));
    target = best;
  } else {
    for (int i = 0; i < n; ++i)
      for (int l = 1; l < n; ++l)
        if (dist(i, l) < dist(i, target[size_t(i)])) target[size_t(i)] = l;
  }
  std::vector<float> actions(n);
  for (int i = 0; i < n; ++i) {
    const int dx = offset(i, target[size_t(i)], 0), dy = offset(i, target[size_t(i)], 1);
    actions[size_t(i)] = dx < 0 ? 3.f : dx > 0 ? 4.f : dy < 0 ? 1.f : dy > 0 ? 2.f : 0.f;
  }
  return actions;
}

// The mean return per agent of `episodes` Spread-v0 episodes played by
// scripted_spread, or at random (`random`).
double spread_return(int episodes, bool assign, bool random) {
  games::spread_game game;
  std::mt19937_64 rng(5);
  double total = 0;
  for (int e = 0; e < episodes; ++e) {
    game.reset(std::uint64_t(1000 + e));
    for (;;) {
      std::vector<std::vector<float>> views(3, std::vector<float>(15));
      for (int i = 0; i < 3; ++i) game.observe(i, views[size_t(i)].data());
      std::vector<float> actions = scripted_spread(views, assign);
      if (random)
        for (float& a : actions) a = float(rng() % 5);
      const games::joint_result r = game.step(actions.data());
      for (double x : r.rewards) total += x / 3;
      if (r.truncated) break;
    }
  }
  return total / episodes;
}

// Contest-v0's scripted team, from what each agent observes: the two agents
// take the two landmarks by the assignment of least total distance and walk
// to them, x first.
float scripted_contest_move(const std::vector<float>& me, const std::vector<float>& mate) {
  const auto offset = [](const std::vector<float>& v, int l, int axis) { return int(std::lround(v[size_t(2 + 2 * l + axis)] * 4)); };
  const auto dist = [&](const std::vector<float>& v, int l) { return std::abs(offset(v, l, 0)) + std::abs(offset(v, l, 1)); };
  // Landmark 0 for me when that pairing costs no more; ties by team index.
  const int straight = dist(me, 0) + dist(mate, 1), crossed = dist(me, 1) + dist(mate, 0);
  const bool first_of_team = me[12] > 0.5f;
  const int l = straight < crossed || (straight == crossed && first_of_team) ? 0 : 1;
  const int dx = offset(me, l, 0), dy = offset(me, l, 1);
  return dx < 0 ? 3.f : dx > 0 ? 4.f : dy < 0 ? 1.f : dy > 0 ? 2.f : 0.f;
}

// Red's mean return an agent over `episodes` Contest-v0 episodes, each team
// scripted or random.
double contest_return(int episodes, bool red_scripted, bool blue_scripted) {
  games::contest_game game;
  std::mt19937_64 rng(11);
  double total = 0;
  for (int e = 0; e < episodes; ++e) {
    game.reset(std::uint64_t(500 + e));
    for (;;) {
      std::vector<std::vector<float>> views(4, std::vector<float>(14));
      for (int i = 0; i < 4; ++i) game.observe(i, views[size_t(i)].data());
      std::vector<float> actions(4);
      for (int i = 0; i < 4; ++i) {
        const bool scripted = i < 2 ? red_scripted : blue_scripted;
        actions[size_t(i)] = scripted ? scripted_contest_move(views[size_t(i)], views[size_t(i ^ 1)]) : float(rng() % 5);
      }
      const games::joint_result r = game.step(actions.data());
      total += r.rewards[0];
      if (r.truncated) break;
    }
  }
  return total / episodes;
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("a team: env.seat all makes every agent of each game a row, each given its own agent's reward") {
  auto o = std::make_unique<plays_three>();
  plays_three* others = o.get();
  games::seat_vector v(tallies(2), games::seat_choice::all, std::move(o));
  REQUIRE(v.size() == 6);
  CHECK(v.agents_per_game() == 3);
  std::vector<std::uint64_t> seeds{1, 2, 3, 4, 5, 6};
  std::vector<float> obs(18), final_obs(18);
  std::vector<envs::step_result> r(6);
  v.reset(seeds.data(), obs.data());
  for (int row = 0; row < 6; ++row) CHECK(obs[size_t(row) * 3 + 1] == row % 3);  // row r: agent r % 3
  // Row r plays action r % 4: each row's reward is its own action's.
  const std::vector<float> actions{0, 1, 2, 3, 0, 1};
  v.step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  for (int row = 0; row < 6; ++row) {
    CAPTURE(row);
    CHECK(r[size_t(row)].reward == doctest::Approx(0.1 * actions[size_t(row)] + 0.001 * (row % 3 + 1)));
    CHECK_FALSE(r[size_t(row)].terminated);
  }
  // Each agent sees its teammates' actions of its own game.
  CHECK(obs[0 * 3 + 2] == 1 + 2);
  CHECK(obs[4 * 3 + 2] == 3 + 1);
  CHECK(others->asked.empty());  // no agent outside the side: no one asked
  v.step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  v.step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  for (int row = 0; row < 6; ++row) CHECK(r[size_t(row)].terminated);  // every row of a game ends with it
  CHECK(final_obs[0] == 3);
  CHECK(obs[0] == 0);  // and starts anew
  // The opponents hear each game's mean return of its team.
  REQUIRE(others->ended.size() == 2);
  CHECK(others->ended[0] == doctest::Approx(3 * (0.1 * (0 + 1 + 2) + 0.006) / 3));
  // A team's rows are one game: one cannot start alone.
  CHECK_THROWS_AS(v.reset_one(1, 7, obs.data()), std::logic_error);
}

TEST_CASE("a team: an agent that leaves ends its row as it left, and cuts its teammates' episodes there") {
  games::seat_vector v(tallies(1, /*leaver=*/1), games::seat_choice::all, std::make_unique<plays_three>());
  std::vector<std::uint64_t> seeds{1, 2, 3};
  std::vector<float> obs(9), final_obs(9);
  std::vector<envs::step_result> r(3);
  v.reset(seeds.data(), obs.data());
  const std::vector<float> ones{1, 1, 1};
  v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  CHECK(r[1].terminated);  // its own end
  CHECK_FALSE(r[1].truncated);
  for (int row : {0, 2}) {
    CHECK(r[size_t(row)].truncated);  // cut: the values bootstrap
    CHECK_FALSE(r[size_t(row)].terminated);
    CHECK(r[size_t(row)].reward == doctest::Approx(0.1 + 0.001 * (row + 1)));
  }
  CHECK(final_obs[0] == 1);
  CHECK(obs[0] == 0);  // the game anew, and nothing steps a departed agent
  v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  CHECK(r[1].terminated);  // it leaves the new game after its first round too
  CHECK(r[1].reward == doctest::Approx(0.1 + 0.002));
}

TEST_CASE("a game of three agents from one seat: both others asked in one batch; one that leaves is asked no more") {
  for (auto seat : {games::seat_choice::first, games::seat_choice::second}) {
    const int me = seat == games::seat_choice::first ? 0 : 1;
    auto o = std::make_unique<plays_three>();
    plays_three* others = o.get();
    games::seat_vector v(tallies(2, /*leaver=*/2), seat, std::move(o));
    REQUIRE(v.size() == 2);
    std::vector<std::uint64_t> seeds{1, 2};
    std::vector<float> obs(6), final_obs(6);
    std::vector<envs::step_result> r(2);
    v.reset(seeds.data(), obs.data());
    CHECK(obs[1] == me);
    const std::vector<float> twos{2, 2};
    v.step(twos.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    CHECK(r[0].reward == doctest::Approx(0.2 + 0.001 * (me + 1)));
    CHECK(obs[2] == 3 + 3);  // the two others played 3
    REQUIRE(others->asked.size() == 1);
    CHECK(others->asked[0] == std::vector<int>{0, 0, 1, 1});  // two agents of each game, one call
    std::set<float> asked_agents;
    for (const auto& s : others->seen) asked_agents.insert(s[1]);
    CHECK(asked_agents == std::set<float>{float(1 - me), 2.f});
    // Agent 2 left after the first round: only the remaining other is asked.
    v.step(twos.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    REQUIRE(others->asked.size() == 2);
    CHECK(others->asked[1] == std::vector<int>{0, 1});
    CHECK(others->seen.back()[1] == 1 - me);
    v.step(twos.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    CHECK(r[0].terminated);
  }
  // alternate draws each of the three agents.
  games::seat_vector v(tallies(1), games::seat_choice::alternate, std::make_unique<plays_three>());
  std::vector<int> drawn(3, 0);
  std::vector<float> obs(3);
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    v.reset_one(0, seed, obs.data());
    ++drawn[size_t(v.seat(0))];
    CHECK(obs[1] == v.seat(0));
  }
  for (int n : drawn) CHECK(n > 70);
}

TEST_CASE("a team's refusals: agents of different spaces, turn-based games, one environment of a team") {
  const envs::env_spec a{"Test/Mixed", envs::space::box_space({2}, {0, 0}, {1, 1}), envs::space::discrete_space(2), 0};
  envs::env_spec b = a;
  b.action = envs::space::discrete_space(3);
  CHECK_THROWS_WITH_AS(games::specs_of_side({&a, &a, &b}, {"x", "y", "z"}, games::seat_choice::all),
                       doctest::Contains("env.seat"), envs::env_key_error);
  CHECK_THROWS_WITH_AS(games::specs_of_side({&a, &a, &b}, {"x", "y", "z"}, games::seat_choice::first),
                       doctest::Contains("z"), envs::env_key_error);  // one player for y and z
  const games::side_specs s = games::specs_of_side({&b, &a, &a}, {"x", "y", "z"}, games::seat_choice::first);
  CHECK(s.own == &b);
  CHECK(s.other == &a);
  CHECK(games::parse_seat("all") == games::seat_choice::all);

  envs::env_config config;
  config.id = "ConnectFour-v0";
  config.versus.seat = "all";
  CHECK_THROWS_WITH_AS(catalog::make_env_vector(config, 2), doctest::Contains("turn-based"), envs::env_key_error);
  config.id = games::spread_game::id;
  try {
    catalog::make_env(config);
    FAIL("one environment of a team was made");
  } catch (const envs::env_key_error& e) {
    CHECK(e.key == "env.seat");
  }
  const auto team = catalog::make_env_vector(config, 4);
  CHECK(team->size() == 12);  // four games of three
  CHECK_FALSE(catalog::is_versus_game(config.id));
  CHECK(catalog::is_game(config.id));
  config.versus.seat = "alternate";  // one agent, the others random
  CHECK(catalog::make_env_vector(config, 4)->size() == 4);
}

TEST_CASE("Spread-v0: moves, walls, the team's reward, collisions, the views and the step limit") {
  using games::spread_game;
  spread_game game;
  CHECK(game.agent_count() == 3);
  CHECK(game.spec().observation.flat_size() == 15);
  // Resets draw distinct cells for the landmarks and for the agents.
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    game.reset(seed);
    std::set<int> landmarks, agents;
    for (const auto& c : game.now().landmark) landmarks.insert(c.y * 5 + c.x);
    for (const auto& c : game.now().agent) agents.insert(c.y * 5 + c.x);
    CHECK(landmarks.size() == 3);
    CHECK(agents.size() == 3);
  }
  spread_game::state s;
  s.landmark = {{{0, 0}, {4, 4}, {2, 2}}};
  s.agent = {{{0, 1}, {4, 3}, {0, 4}}};
  game.set(s);
  // Agent 0 up onto (0, 0), agent 1 down onto (4, 4), agent 2 left into the wall.
  const float moves[3] = {1, 2, 3};
  games::joint_result r = game.step(moves);
  CHECK(game.now().agent[0].y == 0);
  CHECK(game.now().agent[1].y == 4);
  CHECK(game.now().agent[2].x == 0);
  // Landmark (2, 2)'s nearest agent is 4 cells away (from (0, 4) or (4, 4)).
  for (double x : r.rewards) CHECK(x == doctest::Approx(-4.0 / 24));
  CHECK_FALSE(r.truncated);
  // Agent 1's view: its cell, the landmarks' offsets, the others', its index.
  std::vector<float> o(15);
  game.observe(1, o.data());
  const std::vector<float> expected{1, 1, -1, -1, 0, 0, -0.5f, -0.5f, -1, -1, -1, 0, 0, 1, 0};
  for (size_t i = 0; i < 15; ++i) CHECK(o[i] == doctest::Approx(expected[i]));
  // Two agents on one cell are each given the penalty.
  s.agent = {{{2, 2}, {2, 1}, {4, 4}}};
  s.steps = 0;
  game.set(s);
  const float meet[3] = {0, 2, 0};
  r = game.step(meet);
  CHECK(r.rewards[0] == doctest::Approx(-4.0 / 24 - spread_game::collision_penalty));
  CHECK(r.rewards[1] == doctest::Approx(-4.0 / 24 - spread_game::collision_penalty));
  CHECK(r.rewards[2] == doctest::Approx(-4.0 / 24));
  const float bad[3] = {0, 5, 0};
  CHECK_THROWS_AS(game.step(bad), std::invalid_argument);
  // The 25th step cuts the episode.
  game.reset(3);
  const float stay[3] = {0, 0, 0};
  for (int i = 0; i < 24; ++i) CHECK_FALSE(game.step(stay).truncated);
  CHECK(game.step(stay).truncated);
  CHECK_THROWS_AS(game.step(stay), std::logic_error);
}

TEST_CASE("Spread-v0 rewards a team whose agents take a landmark each over agents that each take their nearest") {
  const double assigned = spread_return(2000, true, false), nearest = spread_return(2000, false, false),
               random = spread_return(2000, false, true);
  MESSAGE("Spread-v0 mean return an agent: best assignment " << assigned << ", nearest landmark " << nearest
                                                            << ", random " << random);
  CHECK(assigned > random + 4.0);
  // Agents that do not share the landmarks out crowd onto the same ones and
  // do worse than random play.
  CHECK(nearest < random);
}

TEST_CASE("Contest-v0: a landmark is held by the team alone on it; the game is zero-sum; views are the same for either team") {
  using games::contest_game;
  contest_game game;
  CHECK(game.agent_count() == 4);
  CHECK(game.agent_name(0) == "red_0");
  CHECK(game.agent_name(3) == "blue_1");
  CHECK(game.spec().observation.flat_size() == 14);
  contest_game::state s;
  s.landmark = {{{0, 0}, {4, 4}}};
  // red_0 steps onto (0, 0); red_1 and blue_0 both onto (4, 4): contested.
  s.agent = {{{0, 1}, {4, 3}, {3, 4}, {2, 2}}};
  game.set(s);
  const float moves[4] = {1, 2, 4, 0};
  games::joint_result r = game.step(moves);
  CHECK(game.holder(0) == 0);
  CHECK(game.holder(1) == -1);
  CHECK(r.rewards == std::vector<double>{0.02, 0.02, -0.02, -0.02});
  // red_1 steps off: blue holds (4, 4), one landmark each.
  const float off[4] = {0, 1, 0, 0};
  r = game.step(off);
  CHECK(game.holder(1) == 1);
  for (double x : r.rewards) CHECK(x == doctest::Approx(0.0));
  // blue_1 walks onto (0, 0) too: contested; blue holds the other.
  s = game.now();
  s.agent[3] = {1, 0};
  game.set(s);
  const float onto[4] = {0, 0, 0, 3};
  r = game.step(onto);
  CHECK(r.rewards == std::vector<double>{-0.02, -0.02, 0.02, 0.02});
  // A red agent's view and the mirror blue agent's read alike.
  s.agent = {{{1, 1}, {3, 3}, {1, 3}, {3, 1}}};
  s.landmark = {{{2, 2}, {0, 4}}};
  game.set(s);
  std::vector<float> red(14), blue(14);
  game.observe(0, red.data());
  game.observe(2, blue.data());
  const std::vector<float> red_expected{0.25f, 0.25f, 0.25f, 0.25f, -0.25f, 0.75f, 0.5f, 0.5f, 0, 0.5f, 0.5f, 0, 1, 0};
  for (size_t i = 0; i < 14; ++i) CHECK(red[i] == doctest::Approx(red_expected[i]));
  CHECK(blue[12] == 1);  // the first of its team too
  CHECK(blue[6] == doctest::Approx(0.5f));   // its teammate (3, 1) is 2 cells right
  CHECK(blue[7] == doctest::Approx(-0.5f));  // and 2 up
  const float bad[4] = {0, 0, 7, 0};
  CHECK_THROWS_AS(game.step(bad), std::invalid_argument);
}

TEST_CASE("Contest-v0: a team that splits over the landmarks beats a random one; random teams break even") {
  const double scripted = contest_return(2000, true, false), random = contest_return(2000, false, false),
               mirror = contest_return(2000, true, true);
  MESSAGE("Contest-v0 red's mean return an agent: scripted against random " << scripted << ", random against random "
                                                                            << random << ", scripted against scripted " << mirror);
  CHECK(scripted > 0.6);
  CHECK(std::abs(random) < 0.02);
  CHECK(std::abs(mirror) < 0.05);
}

TEST_CASE("Contest-v0's built-in team 'split' plays as the scripted team of this test does") {
  // Blue moves at random; red is the built-in player, which reads one
  // agent's view at a time. It should score what scripted_contest_move's
  // team scores against a random one (0.86), so blue about -0.86.
  envs::env_config config;
  config.id = games::contest_game::id;
  std::vector<std::unique_ptr<games::simultaneous_env>> g;
  for (int i = 0; i < 8; ++i) g.push_back(std::make_unique<games::contest_game>());
  const envs::env_spec spec = games::contest_game().spec();
  games::seat_vector blue(std::move(g), games::seat_choice::all,
                         catalog::builtin_opponents("split", 8, config, spec, "env.opponent"), {2, 3});
  std::vector<std::uint64_t> seeds(16);
  for (size_t i = 0; i < seeds.size(); ++i) seeds[i] = 100 + i;
  std::vector<float> obs(16 * 14), final_obs(16 * 14), actions(16);
  std::vector<envs::step_result> r(16);
  std::mt19937_64 rng(3);
  blue.reset(seeds.data(), obs.data());
  double total = 0;
  int episodes = 0;
  for (int step = 0; step < 25 * 100; ++step) {
    for (float& a : actions) a = float(rng() % 5);
    for (size_t i = 0; i < seeds.size(); ++i) seeds[i] += 16;
    blue.step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    for (size_t i = 0; i < 16; ++i) total += r[i].reward;
    if (r[0].truncated) episodes += 16;
  }
  REQUIRE(episodes == 1600);
  MESSAGE("blue (random) against 'split': " << total / episodes);
  CHECK(total / episodes == doctest::Approx(-contest_return(2000, true, false)).epsilon(0.1));
  CHECK_THROWS_AS(catalog::check_opponent_name("split", "DuelPong-v0", "env.opponent"), std::invalid_argument);
}

TEST_CASE("a team of two against a team of two: each side's rows, the other team asked in one batch") {
  struct plays_zero final : games::opponents {
    std::vector<std::vector<int>> asked;
    void start_episode(int, std::uint64_t) override {}
    void act(const int* games, const int*, int rows, const float*, const std::uint8_t*, float* actions) override {
      asked.emplace_back(games, games + rows);
      std::fill_n(actions, rows, 0.f);
    }
  };
  std::vector<std::unique_ptr<games::simultaneous_env>> g;
  for (int i = 0; i < 2; ++i) g.push_back(std::make_unique<games::contest_game>());
  auto o = std::make_unique<plays_zero>();
  plays_zero* others = o.get();
  games::seat_vector blue(std::move(g), games::seat_choice::all, std::move(o), {2, 3});
  REQUIRE(blue.size() == 4);
  std::vector<std::uint64_t> seeds{1, 2, 3, 4};
  std::vector<float> obs(4 * 14), final_obs(4 * 14);
  std::vector<envs::step_result> r(4);
  blue.reset(seeds.data(), obs.data());
  CHECK(obs[12] == 1);        // row 0: blue_0
  CHECK(obs[14 + 13] == 1);   // row 1: blue_1
  const std::vector<float> stay(4, 0.f);
  blue.step(stay.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  REQUIRE(others->asked.size() == 1);
  CHECK(others->asked[0] == std::vector<int>{0, 0, 1, 1});  // red_0 and red_1 of each game
  CHECK(r[0].reward == doctest::Approx(r[1].reward));  // teammates share the team's reward

  envs::env_config config;
  config.id = games::contest_game::id;
  config.versus.seat = "all";
  config.versus.team = {"blue_*"};
  CHECK(catalog::rows_per_env(config) == 2);
  CHECK(catalog::make_env_vector(config, 3)->size() == 6);
  config.versus.team = {"green_*"};
  try {
    catalog::make_env_vector(config, 1);
    FAIL("a team of no agent was made");
  } catch (const envs::env_key_error& e) {
    CHECK(e.key == "env.team");
    CHECK(std::string(e.what()).find("red_0, red_1, blue_0, blue_1") != std::string::npos);
  }
}
}
