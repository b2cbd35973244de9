// games/seat_vector.hpp: one side of simultaneous-move games, stepped as a
// vector, on a game written here whose rewards say which action they came
// from; and DuelPong-v0's rules (games/builtin/duel_pong.hpp) on set states.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "catalog/registry.hpp"
#include "catalog/players.hpp"
#include "games/builtin/duel_pong.hpp"
#include "games/seat_vector.hpp"

using namespace troupe;

namespace {

// Three rounds; each gives agent a 0.1 x its own action + 0.01 x the other's
// action (actions 0-2), and the last round +1 to agent 0 if the two actions
// matched, else +1 to agent 1 (-1 to the other). Each agent observes [round,
// its own index, the other's previous action].
class pennies_game final : public games::simultaneous_env {
 public:
  pennies_game() : spec_{"Test/Pennies", envs::space::box_space({3}, {0, 0, 0}, {3, 1, 2}), envs::space::discrete_space(3), 0} {}
  const envs::env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int a) const override { return a == 0 ? "even" : "odd"; }
  void reset(std::uint64_t) override { round_ = 0, last_[0] = last_[1] = 0; }
  void observe(int agent, float* o) const override {
    o[0] = float(round_);
    o[1] = float(agent);
    o[2] = float(last_[1 - agent]);
  }
  games::joint_result step(const float* a) override {
    if (round_ >= 3) throw std::logic_error("pennies: stepped after its end");
    games::joint_result r;
    r.rewards = {0.1 * a[0] + 0.01 * a[1], 0.1 * a[1] + 0.01 * a[0]};
    last_[0] = int(a[0]), last_[1] = int(a[1]);
    if (++round_ == 3) {
      const int winner = a[0] == a[1] ? 0 : 1;
      r.rewards[size_t(winner)] += 1;
      r.rewards[size_t(1 - winner)] -= 1;
      r.terminated = true;
    }
    return r;
  }

 private:
  envs::env_spec spec_;
  int round_ = 0, last_[2] = {0, 0};
};

// Always plays 2; keeps what it was shown.
struct plays_two final : games::opponents {
  std::vector<int> batches;
  std::vector<std::vector<float>> seen;
  std::vector<double> ended;
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* obs, const std::uint8_t*, float* actions) override {
    batches.push_back(rows);
    for (int r = 0; r < rows; ++r) {
      seen.push_back({obs[3 * r], obs[3 * r + 1], obs[3 * r + 2]});
      actions[r] = 2;
    }
  }
  void end_episode(int, double learner_return) override { ended.push_back(learner_return); }
};

std::unique_ptr<games::seat_vector> pennies(int k, games::seat_choice side, plays_two*& others) {
  std::vector<std::unique_ptr<games::simultaneous_env>> g;
  for (int i = 0; i < k; ++i) g.push_back(std::make_unique<pennies_game>());
  auto o = std::make_unique<plays_two>();
  others = o.get();
  return std::make_unique<games::seat_vector>(std::move(g), side, std::move(o));
}

// Agent 1 leaves after the first round with +1 (terminated, the game going
// on); agent 0 plays two more rounds alone, each worth 0.1 x its action, and
// is cut after the third (truncated). Rows of a departed agent must be 0.
class one_leaves_game final : public games::simultaneous_env {
 public:
  // Three floats a view, as plays_two reads them: [round, index, 0].
  one_leaves_game() : spec_{"Test/OneLeaves", envs::space::box_space({3}, {0, 0, 0}, {3, 1, 0}), envs::space::discrete_space(3), 0} {}
  const envs::env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int a) const override { return a == 0 ? "stays" : "leaves"; }
  void reset(std::uint64_t) override { round_ = 0; }
  void observe(int agent, float* o) const override {
    o[0] = float(round_);
    o[1] = float(agent);
    o[2] = 0.f;
  }
  games::joint_result step(const float* a) override {
    if (round_ >= 3) throw std::logic_error("one_leaves: stepped after its end");
    if (round_ > 0 && a[1] != 0) throw std::logic_error("one_leaves: a departed agent's row is not 0");
    games::joint_result r;
    r.rewards = {0.1 * a[0], round_ == 0 ? 0.1 * a[1] + 1.0 : 0.0};
    ++round_;
    if (round_ == 1) r.left = {0, games::joint_result::agent_terminated};
    if (round_ == 3) {
      r.left = {games::joint_result::agent_truncated, 0};
      r.truncated = true;
    }
    return r;
  }

 private:
  envs::env_spec spec_;
  int round_ = 0;
};

}  // namespace

TEST_SUITE("games") {
TEST_CASE("seat_vector, simultaneous games: each side's rewards, the other side asked for all games at once from its own view") {
  for (auto side : {games::seat_choice::first, games::seat_choice::second}) {
    plays_two* others = nullptr;
    auto v = pennies(3, side, others);
    const int me = side == games::seat_choice::first ? 0 : 1;
    std::vector<std::uint64_t> seeds{1, 2, 3};
    std::vector<float> obs(9), final_obs(9);
    std::vector<envs::step_result> r(3);
    v->reset(seeds.data(), obs.data());
    CHECK(obs[1] == me);  // each row from the learning side
    const std::vector<float> ones{1, 1, 1}, twos{2, 2, 2};
    v->step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    CHECK(r[0].reward == doctest::Approx(0.1 * 1 + 0.01 * 2));
    CHECK_FALSE(r[0].terminated);
    CHECK(obs[2] == 2);  // the other's previous action, seen by the learner
    v->step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    v->step(twos.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    // Both played 2 last: a match, which the even side (agent 0) wins.
    CHECK(r[2].reward == doctest::Approx(0.1 * 2 + 0.01 * 2 + (me == 0 ? 1 : -1)));
    CHECK(r[2].terminated);
    CHECK(final_obs[0] == 3);   // the end, before the reset
    CHECK(obs[0] == 0);         // the next episode's start
    CHECK(others->batches == std::vector<int>{3, 3, 3});  // one request per step
    for (const auto& s : others->seen) CHECK(s[1] == 1 - me);  // the other side's own view
    REQUIRE(others->ended.size() == 3);
    CHECK(others->ended[0] == doctest::Approx(0.12 + 0.12 + 0.22 + (me == 0 ? 1 : -1)));
  }
  plays_two* others = nullptr;
  auto v = pennies(1, games::seat_choice::alternate, others);
  int second = 0;
  std::vector<float> obs(3);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    v->reset_one(0, seed, obs.data());
    second += v->seat(0);
    CHECK(obs[1] == v->seat(0));
  }
  CHECK(second > 70);
  CHECK(second < 130);
}

TEST_CASE("seat_vector, simultaneous games: an agent that leaves first; the other plays on alone, no longer asked, or its episode ends") {
  for (auto side : {games::seat_choice::first, games::seat_choice::second}) {
    std::vector<std::unique_ptr<games::simultaneous_env>> g;
    for (int i = 0; i < 2; ++i) g.push_back(std::make_unique<one_leaves_game>());
    auto o = std::make_unique<plays_two>();
    plays_two* others = o.get();
    games::seat_vector v(std::move(g), side, std::move(o));
    std::vector<std::uint64_t> seeds{1, 2};
    std::vector<float> obs(6), final_obs(6);
    std::vector<envs::step_result> r(2);
    v.reset(seeds.data(), obs.data());
    const std::vector<float> ones{1, 1};
    v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    if (side == games::seat_choice::first) {
      // The other side left: the policy plays on alone.
      CHECK(r[0].reward == doctest::Approx(0.1));
      CHECK_FALSE(r[0].terminated);
      CHECK_FALSE(r[0].truncated);
      v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
      CHECK(r[0].reward == doctest::Approx(0.1));
      CHECK_FALSE(r[0].truncated);
      v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
      CHECK(r[0].truncated);  // its own end, a cut
      CHECK_FALSE(r[0].terminated);
      CHECK(final_obs[0] == 3);
      CHECK(obs[0] == 0);  // the next episode
      CHECK(others->batches == std::vector<int>{2});  // asked in the first round only
      REQUIRE(others->ended.size() == 2);
      CHECK(others->ended[0] == doctest::Approx(0.3));
      v.step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
      CHECK(others->batches == std::vector<int>{2, 2});  // asked again in the new games
    } else {
      // The policy's agent left: its episode ends, with the game.
      CHECK(r[0].reward == doctest::Approx(1.1));
      CHECK(r[0].terminated);
      CHECK_FALSE(r[0].truncated);
      CHECK(final_obs[0] == 1);
      CHECK(obs[0] == 0);
      REQUIRE(others->ended.size() == 2);
      CHECK(others->ended[1] == doctest::Approx(1.1));
    }
  }
}

TEST_CASE("DuelPong: returns, misses, walls, the step limit and mirrored views") {
  games::duel_pong game;
  game.reset(7);
  games::duel_pong::state s;
  s.paddle[0] = 0.5, s.paddle[1] = 0.3;
  s.x = 0.01, s.y = 0.52, s.vx = -0.02, s.vy = 0.0;
  game.set(s);
  const float stay[2] = {0, 0};
  games::joint_result r = game.step(stay);  // the left paddle covers the ball
  CHECK(r.rewards == std::vector<double>{0, 0});
  CHECK_FALSE(r.terminated);
  CHECK(game.now().x == doctest::Approx(0.01));
  CHECK(game.now().vx == doctest::Approx(0.021));
  CHECK(game.now().vy == doctest::Approx(0.015 * 0.02 / 0.08));  // deflected by where it hit
  s.y = 0.7;  // past the left paddle's reach
  game.set(s);
  r = game.step(stay);
  CHECK(r.terminated);
  CHECK(r.rewards == std::vector<double>{-1, 1});
  s.x = 0.5, s.y = 0.01, s.vx = 0.02, s.vy = -0.02;  // off the top wall
  game.set(s);
  r = game.step(stay);
  CHECK(game.now().y == doctest::Approx(0.01));
  CHECK(game.now().vy == doctest::Approx(0.02));
  // Paddles: up is -y, clamped at the wall.
  const float moves[2] = {1, 2};
  s.paddle[0] = 0.09, s.paddle[1] = 0.5;
  game.set(s);
  game.step(moves);
  CHECK(game.now().paddle[0] == doctest::Approx(0.08));
  CHECK(game.now().paddle[1] == doctest::Approx(0.53));
  const float bad[2] = {0, 3};
  CHECK_THROWS_AS(game.step(bad), std::invalid_argument);
  s.steps = games::duel_pong::step_limit - 1;
  game.set(s);
  r = game.step(stay);
  CHECK(r.truncated);
  CHECK_FALSE(r.terminated);
  // The right player sees the court as the left one would, mirrored.
  s = {};
  s.paddle[0] = 0.2, s.paddle[1] = 0.7, s.x = 0.3, s.y = 0.4, s.vx = 0.02, s.vy = -0.01;
  game.set(s);
  float left[6], right[6];
  game.observe(0, left);
  game.observe(1, right);
  CHECK(left[0] == doctest::Approx(0.2));
  CHECK(right[0] == doctest::Approx(0.7));
  CHECK(right[1] == doctest::Approx(0.2));
  CHECK(right[2] == doctest::Approx(0.7));
  CHECK(right[3] == doctest::Approx(0.4));
  CHECK(right[4] == doctest::Approx(-left[4]));
  CHECK(right[5] == doctest::Approx(left[5]));
}

TEST_CASE("DuelPong-v0 as an environment: one side against the tracking player, which a still paddle loses to") {
  envs::env_config c;
  c.id = "DuelPong-v0";
  c.versus.opponent = "track";
  c.versus.seat = "first";
  auto env = catalog::make_env(c);
  CHECK(env->spec().action.n == 3);
  int lost = 0, episodes = 0;
  std::vector<float> obs(6);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    env->reset(seed, obs.data());
    const float stay = 0;
    for (int t = 0; t < 1000; ++t) {
      const envs::step_result r = env->step(&stay, obs.data());
      if (r.terminated || r.truncated) {
        ++episodes;
        lost += r.reward < 0;
        break;
      }
    }
  }
  CHECK(episodes == 20);
  CHECK(lost >= 12);  // a still paddle covers a sixth of its wall; the tracker returns most balls
  CHECK_THROWS_AS(catalog::check_opponent_name("track", "ConnectFour-v0", "env.opponent"), std::invalid_argument);
  CHECK_THROWS_AS(catalog::check_opponent_name("alphabeta:2", "DuelPong-v0", "env.opponent"),
                  std::invalid_argument);
}
}
