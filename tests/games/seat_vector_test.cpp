// games/seat_vector.hpp: one seat of turn-based games, stepped as a vector.
// A countdown game written here, with known rewards on every move, checks
// that the learning seat gets exactly its own rewards, those of the other
// seat's moves credited to the step that allowed them, and that the other
// seat's moves of all games are asked for together.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/env_error.hpp"
#include "games/seat_vector.hpp"
#include "games/turn_based_env.hpp"

using namespace troupe;

namespace {

// Two players take 1 or 2 (action 0 or 1) from a counter starting at 5;
// whoever takes the last wins: +1 to the winner, -1 to the loser on that
// move. Every move also gives its mover +0.1 and the other -0.05, so each
// reward says which move it came from.
class countdown_game final : public games::turn_based_env {
 public:
  countdown_game() : spec_{"Test/Countdown", envs::space::box_space({2}, {0, 0}, {5, 1}), envs::space::discrete_space(2), 0} {
    spec_.has_action_mask = true;
  }
  const envs::env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int a) const override { return "player_" + std::to_string(a); }
  void reset(std::uint64_t) override {
    left_ = 5;
    mover_ = 0;
    ++resets;
  }
  int to_move() const override { return mover_; }
  void observe(int agent, float* obs) const override {
    obs[0] = float(left_);
    obs[1] = float(agent);
  }
  void action_mask(std::uint8_t* legal) const override {
    legal[0] = left_ >= 1;
    legal[1] = left_ >= 2;
  }
  games::turn_result step(const float* action) override {
    const int take = int(action[0]) + 1;
    if (take > left_ || left_ == 0) throw std::invalid_argument("countdown: cannot take " + std::to_string(take));
    games::turn_result r;
    r.rewards = {0, 0};
    r.rewards[size_t(mover_)] += 0.1;
    r.rewards[size_t(1 - mover_)] -= 0.05;
    left_ -= take;
    ++moves;
    if (left_ == 0) {
      r.rewards[size_t(mover_)] += 1;
      r.rewards[size_t(1 - mover_)] -= 1;
      r.terminated = true;
    }
    mover_ = 1 - mover_;
    return r;
  }
  int resets = 0, moves = 0;  // since it was made

 private:
  envs::env_spec spec_;
  int left_ = 5, mover_ = 0;
};

// Always takes one; records every batch it was asked for.
struct take_one final : games::opponents {
  std::vector<int> batches;              // rows per act() call
  std::vector<std::vector<float>> seen;  // observations, per row
  std::vector<double> ended;             // learner returns at each episode's end
  std::vector<int> asked;                // the game of every row asked for
  int started = 0;
  void start_episode(int, std::uint64_t) override { ++started; }
  void act(const int* games, const int*, int rows, const float* obs, const std::uint8_t* masks, float* actions) override {
    batches.push_back(rows);
    for (int r = 0; r < rows; ++r) {
      asked.push_back(games[r]);
      CHECK(masks[2 * r] == 1);
      seen.push_back({obs[2 * r], obs[2 * r + 1]});
      actions[r] = 0;
    }
  }
  void end_episode(int, double learner_return) override { ended.push_back(learner_return); }
  void describe(int game, envs::other_seat_view& view) const override {
    view.who = "take-one";
    if (game == watched_game) view.policy = {0.5f, -0.5f};
  }
};

std::unique_ptr<games::seat_vector> countdown_games(int k, games::seat_choice seat, take_one*& others,
                                                   envs::opening_options opening = {},
                                                   std::vector<countdown_game*>* games = nullptr) {
  std::vector<std::unique_ptr<games::turn_based_env>> g;
  for (int i = 0; i < k; ++i) {
    auto game = std::make_unique<countdown_game>();
    if (games) games->push_back(game.get());
    g.push_back(std::move(game));
  }
  auto o = std::make_unique<take_one>();
  others = o.get();
  return std::make_unique<games::seat_vector>(std::move(g), seat, std::move(o), std::vector<int>{}, opening);
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("seat_vector: the first seat's rewards, the other's moves credited to the step that allowed them") {
  take_one* others = nullptr;
  auto v = countdown_games(3, games::seat_choice::first, others);
  std::vector<std::uint64_t> seeds = {1, 2, 3};
  std::vector<float> obs(6), final_obs(6), actions(3, 0.f);
  std::vector<envs::step_result> res(3);
  v->reset(seeds.data(), obs.data());
  CHECK(others->batches.empty());  // the learner moves first: nobody else has
  CHECK(obs[0] == 5);
  CHECK(obs[1] == 0);  // seen from seat 0
  // 5 -> 4 (learner) -> 3 (other): +0.1 - 0.05.
  v->step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  for (int g = 0; g < 3; ++g) {
    CHECK(res[size_t(g)].reward == doctest::Approx(0.05));
    CHECK_FALSE(res[size_t(g)].terminated);
    CHECK(obs[size_t(2 * g)] == 3);
  }
  REQUIRE(others->batches == std::vector<int>{3});  // one request for the three games
  CHECK(others->seen[0] == std::vector<float>{4, 1});  // the other seat saw it from its side
  // 3 -> 2 -> 1, then the learner takes the last: +1.1 on its own move.
  v->step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  CHECK(res[0].reward == doctest::Approx(0.05));
  v->step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  for (int g = 0; g < 3; ++g) {
    CHECK(res[size_t(g)].reward == doctest::Approx(1.1));
    CHECK(res[size_t(g)].terminated);
    CHECK(final_obs[size_t(2 * g)] == 0);  // the ended game, as the learner saw it last
    CHECK(obs[size_t(2 * g)] == 5);        // and the next one, begun with its reset seed
  }
  REQUIRE(others->ended.size() == 3);
  for (double r : others->ended) CHECK(r == doctest::Approx(1.2));  // 0.05 + 0.05 + 1.1, each game
  CHECK(others->started == 6);
}

TEST_CASE("seat_vector: a viewer sees the other seat's last move of this episode, its mask and who made it") {
  take_one* others = nullptr;
  auto v = countdown_games(2, games::seat_choice::first, others);
  std::vector<std::uint64_t> seeds = {1, 2};
  std::vector<float> obs(4), final_obs(4);
  std::vector<envs::step_result> res(2);
  v->reset(seeds.data(), obs.data());
  envs::other_seat_view view;
  REQUIRE(v->other_seat(0, view));
  CHECK(view.learner_seat == 0);
  CHECK(view.who == "take-one");
  CHECK(view.action.empty());  // it has not moved yet
  // The learner takes 2 (5 -> 3), the other 1 (3 -> 2), under a mask of both.
  std::vector<float> take_two = {1.f, 1.f};
  v->step(take_two.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  REQUIRE(v->other_seat(0, view));
  CHECK(view.action == std::vector<float>{0.f});
  CHECK(view.legal == std::vector<std::uint8_t>{1, 1});
  CHECK(view.policy == std::vector<float>{0.5f, -0.5f});
  REQUIRE(v->other_seat(1, view));
  CHECK(view.policy.empty());  // only the watched game's outputs are kept
  // The learner takes the last 2 and wins: a new episode, and no move of the other's in it yet.
  v->step(take_two.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  CHECK(res[0].terminated);
  REQUIRE(v->other_seat(0, view));
  CHECK(view.action.empty());
}

TEST_CASE("seat_vector: the second seat's loss arrives on the winner's move, in the step that allowed it") {
  take_one* others = nullptr;
  auto v = countdown_games(1, games::seat_choice::second, others);
  std::uint64_t seed = 7;
  std::vector<float> obs(2), final_obs(2);
  envs::step_result res;
  v->reset(&seed, obs.data());
  CHECK(others->batches == std::vector<int>{1});  // the opening move, made at the reset
  CHECK(obs[0] == 4);
  CHECK(obs[1] == 1);
  CHECK(v->seat(0) == 1);
  // 4 -> 3 (learner), 3 -> 2 (other): the opening move's -0.05 is credited
  // to the learner's first step too (nothing is lost).
  const float one = 0;
  v->step(&one, nullptr, obs.data(), &res, final_obs.data());
  CHECK(res.reward == doctest::Approx(-0.05 + 0.1 - 0.05));
  CHECK_FALSE(res.terminated);
  // 2 -> 1 (learner), 1 -> 0 (other wins): the loss is this step's.
  v->step(&one, nullptr, obs.data(), &res, final_obs.data());
  CHECK(res.reward == doctest::Approx(0.1 - 1.05));
  CHECK(res.terminated);
  REQUIRE(others->ended.size() == 1);
  CHECK(others->ended[0] == doctest::Approx(-0.05 + 0.1 - 0.05 + 0.1 - 1.05));
  // Without reset seeds, a game that ended is not stepped again.
  CHECK_THROWS_AS(v->step(&one, nullptr, obs.data(), &res, final_obs.data()), std::logic_error);
}

TEST_CASE("seat_vector: alternate seats are drawn per episode from its seed, and games are checked") {
  take_one* others = nullptr;
  auto v = countdown_games(1, games::seat_choice::alternate, others);
  int second = 0;
  std::vector<float> obs(2);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    v->reset_one(0, seed, obs.data());
    second += v->seat(0);
    CHECK(obs[1] == float(v->seat(0)));
    const int first_draw = v->seat(0);
    v->reset_one(0, seed, obs.data());
    CHECK(v->seat(0) == first_draw);  // a seed is an episode
  }
  CHECK(second > 70);
  CHECK(second < 130);
  CHECK_THROWS_WITH_AS(games::parse_seat("middle"), doctest::Contains("env.seat"), std::invalid_argument);
}

TEST_CASE("seat_vector: random openings are drawn with their probability and length, and credited to no one") {
  // 2000 games, 30 % of them opened with 1 or 2 random moves. A game's
  // random moves are its moves less those the other seat was asked for.
  const int k = 2000;
  take_one* others = nullptr;
  std::vector<countdown_game*> games;
  auto v = countdown_games(k, games::seat_choice::first, others, {0.3, 2}, &games);
  std::vector<std::uint64_t> seeds(k);
  for (int g = 0; g < k; ++g) seeds[size_t(g)] = std::uint64_t(1000 + g);
  std::vector<float> obs(2 * k), final_obs(2 * k), actions(k, 0.f);  // the learner takes one
  v->reset(seeds.data(), obs.data());
  const std::vector<float> first_obs = obs;
  std::vector<int> moves_at_reset;
  for (const countdown_game* game : games) moves_at_reset.push_back(game->moves);
  std::vector<int> asked(k, 0);
  for (int g : others->asked) ++asked[size_t(g)];
  int opened = 0, one = 0, two = 0;
  for (int g = 0; g < k; ++g) {
    const int random_moves = games[size_t(g)]->moves - asked[size_t(g)];
    REQUIRE(random_moves >= 0);
    REQUIRE(random_moves <= 2);
    opened += random_moves > 0;
    one += random_moves == 1;
    two += random_moves == 2;
    CHECK(obs[size_t(2 * g) + 1] == 0);  // the learner's (first) seat to move
    CHECK(obs[size_t(2 * g)] > 0);
  }
  // Binomial(2000, 0.3): mean 600, sd 20.5; of those, half each length.
  CHECK(opened > 500);
  CHECK(opened < 700);
  CHECK(one > opened / 2 - 75);
  CHECK(one < opened / 2 + 75);
  CHECK(one + two == opened);
  // The first step's reward is the learner's own move (+0.1) and -0.05 for
  // each move of the other seat since the opening (before the learner's
  // first move or in answer to it), +-1 to whoever took the last. The
  // opening's own moves (+0.1 or -0.05 each to the learner) are in no step.
  std::vector<envs::step_result> res(k);
  v->step(actions.data(), nullptr, obs.data(), res.data(), final_obs.data());
  std::vector<int> asked_after(k, 0);
  for (int g : others->asked) ++asked_after[size_t(g)];
  for (int g = 0; g < k; ++g) {
    const int answered = asked_after[size_t(g)] - asked[size_t(g)];  // 0: the learner took the last
    const double won = res[size_t(g)].terminated ? (answered ? -1.0 : 1.0) : 0.0;
    CHECK(res[size_t(g)].reward == doctest::Approx(0.1 - 0.05 * asked_after[size_t(g)] + won));
  }
  // And a seed is an episode, its opening included.
  take_one* again = nullptr;
  std::vector<countdown_game*> games_again;
  auto w = countdown_games(k, games::seat_choice::first, again, {0.3, 2}, &games_again);
  std::vector<float> obs_again(2 * k);
  w->reset(seeds.data(), obs_again.data());
  int same = 0;
  for (int g = 0; g < k; ++g) same += games_again[size_t(g)]->moves == moves_at_reset[size_t(g)];
  CHECK(same == k);
  CHECK(obs_again == first_obs);
}

TEST_CASE("seat_vector: an opening that ends the game starts it again; openings need discrete actions") {
  // Up to 5 random moves of 1 or 2 from 5 can take the last: the game is
  // reset and opened again until the learner has a move.
  take_one* others = nullptr;
  std::vector<countdown_game*> games;
  const int k = 200;
  auto v = countdown_games(k, games::seat_choice::second, others, {1.0, 5}, &games);
  std::vector<std::uint64_t> seeds(k);
  for (int g = 0; g < k; ++g) seeds[size_t(g)] = std::uint64_t(7 + g);
  std::vector<float> obs(2 * k);
  v->reset(seeds.data(), obs.data());
  int restarted = 0;
  for (int g = 0; g < k; ++g) {
    restarted += games[size_t(g)]->resets > 1;
    CHECK(obs[size_t(2 * g)] > 0);       // a game goes on
    CHECK(obs[size_t(2 * g) + 1] == 1);  // at the second seat's move
  }
  CHECK(restarted > 10);  // 3 or more moves of 5 end it: many games did
  CHECK(others->ended.empty());  // an episode in which the learner never moved is no episode
  // A seat of a game whose actions are continuous cannot open at random.
  class reach final : public games::turn_based_env {
   public:
    const envs::env_spec& spec() const override { return spec_; }
    int agent_count() const override { return 2; }
    std::string agent_name(int a) const override { return "p" + std::to_string(a); }
    void reset(std::uint64_t) override {}
    int to_move() const override { return 0; }
    void observe(int, float* obs) const override { obs[0] = 0; }
    games::turn_result step(const float*) override { return {}; }

   private:
    envs::env_spec spec_{"Test/Reach", envs::space::box_space({1}, {0}, {1}),
                         envs::space::box_space({1}, {-1}, {1}), 0};
  };
  std::vector<std::unique_ptr<games::turn_based_env>> g;
  g.push_back(std::make_unique<reach>());
  CHECK_THROWS_WITH_AS(games::seat_vector(std::move(g), games::seat_choice::first, std::make_unique<take_one>(),
                                         std::vector<int>{}, envs::opening_options{0.5, 1}),
                       doctest::Contains("not discrete"), envs::env_key_error);
}
}
