// Games whose agents have spaces of their own: Signal-v0's rules
// (games/builtin/signal_game.hpp), and one policy's seat or side of such games
// (games/seat_vector.hpp, games/seat_vector.hpp): the learning side sees its
// own spaces, the other side's player is asked with the other agent's views
// and answers in the other agent's actions, and a side that would alternate
// between them is refused, naming env.seat.
#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "games/builtin/signal_game.hpp"
#include "games/seat_vector.hpp"
#include "games/seat_vector.hpp"

using namespace troupe;
using games::signal_game;

namespace {

// The index of the one 1 in a one-hot row of `n`, or -1 when it is not one.
int hot_index(const float* row, int n) {
  int found = -1;
  for (int i = 0; i < n; ++i) {
    if (row[i] != 0.f && row[i] != 1.f) return -1;
    if (row[i] == 1.f) {
      if (found >= 0) return -1;
      found = i;
    }
  }
  return found;
}

// Plays the sender's seat: the signal is the secret + 1 (signal 0 unused).
// Checks that it is asked with the sender's views.
struct shifted_sender final : games::opponents {
  int asked = 0;
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* obs, const std::uint8_t* masks, float* actions) override {
    CHECK(masks == nullptr);
    for (int r = 0; r < rows; ++r) {
      const int secret = hot_index(obs + 3 * r, 3);
      REQUIRE(secret >= 0);
      actions[r] = float(secret + 1);
      ++asked;
    }
  }
};

// Plays the receiver's seat: guesses the signal's index, modulo 3.
struct literal_receiver final : games::opponents {
  int asked = 0;
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* obs, const std::uint8_t*, float* actions) override {
    for (int r = 0; r < rows; ++r) {
      const int signal = hot_index(obs + 4 * r, 4);
      REQUIRE(signal >= 0);
      actions[r] = float(signal % 3);
      ++asked;
    }
  }
};

std::vector<std::unique_ptr<games::turn_based_env>> signal_games(int k) {
  std::vector<std::unique_ptr<games::turn_based_env>> games;
  for (int i = 0; i < k; ++i) games.push_back(std::make_unique<signal_game>());
  return games;
}

// Two sides of different spaces moving together: agent 0 observes [step, 0]
// and plays Discrete(3); agent 1 observes five floats [step, 1, 2, 3, 4],
// plays MultiDiscrete([2 4]) and has a mask (its last choice of the second
// component is never legal). Each step gives agent 0 a + 10 b + 100 c for
// agent 0's action a and agent 1's (b, c), and agent 1 the negative, so a
// reward says which floats of the joint row reached which agent. Two steps.
class lopsided_game final : public games::simultaneous_env {
 public:
  lopsided_game()
      : first_{"Test/Lopsided", envs::space::box_space({2}, {0, 0}, {2, 1}), envs::space::discrete_space(3), 0},
        second_{"Test/Lopsided", envs::space::box_space({5}, {0, 0, 0, 0, 0}, {2, 1, 2, 3, 4}),
                envs::space::multi_discrete_space({2, 4}), 0} {
    second_.has_action_mask = true;
  }
  const envs::env_spec& spec() const override { return first_; }
  const envs::env_spec& agent_spec(int agent) const override { return agent == 0 ? first_ : second_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int a) const override { return a == 0 ? "small" : "large"; }
  void reset(std::uint64_t) override { step_ = 0; }
  void observe(int agent, float* o) const override {
    o[0] = float(step_);
    if (agent == 0) {
      o[1] = 0;
    } else {
      for (int i = 1; i < 5; ++i) o[i] = float(i);
    }
  }
  void action_mask(int agent, std::uint8_t* legal) const override {
    REQUIRE(agent == 1);  // agent 0 has no mask: never asked for one
    for (int i = 0; i < 6; ++i) legal[i] = i != 5;
  }
  games::joint_result step(const float* actions) override {
    // The row: agent 0's one float, then agent 1's two.
    const double value = actions[0] + 10.0 * actions[1] + 100.0 * actions[2];
    games::joint_result r;
    r.rewards = {value, -value};
    r.terminated = ++step_ == 2;
    return r;
  }

 private:
  envs::env_spec first_, second_;
  int step_ = 0;
};

// Answers fixed actions of `width` floats, checking the views it is asked with.
struct fixed_player final : games::opponents {
  fixed_player(std::vector<float> answer, int view_width, bool masked)
      : answer(std::move(answer)), view_width(view_width), masked(masked) {}
  std::vector<float> answer;
  int view_width;
  bool masked;
  int asked = 0;
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* obs, const std::uint8_t* masks, float* actions) override {
    CHECK((masks != nullptr) == masked);
    for (int r = 0; r < rows; ++r) {
      CHECK(obs[size_t(r * view_width) + 1] == float(view_width == 5 ? 1 : 0));  // the view's own index mark
      if (view_width == 5) CHECK(obs[size_t(r * view_width) + 4] == 4.f);
      if (masked) CHECK(masks[r * 6 + 5] == 0);
      for (size_t i = 0; i < answer.size(); ++i) actions[size_t(r) * answer.size() + i] = answer[i];
      ++asked;
    }
  }
};

std::vector<std::unique_ptr<games::simultaneous_env>> lopsided_games(int k) {
  std::vector<std::unique_ptr<games::simultaneous_env>> games;
  for (int i = 0; i < k; ++i) games.push_back(std::make_unique<lopsided_game>());
  return games;
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("Signal-v0: the sender sees the secret, the receiver only the signal; a guess rewards both alike") {
  signal_game game;
  CHECK(game.agent_name(0) == "sender");
  CHECK(game.agent_name(1) == "receiver");
  CHECK(game.agent_spec(0).observation.describe() == "Box(3)");
  CHECK(game.agent_spec(0).action.describe() == "Discrete(4)");
  CHECK(game.agent_spec(1).observation.describe() == "Box(4)");
  CHECK(game.agent_spec(1).action.describe() == "Discrete(3)");
  CHECK(game.agent_spec(1).id == game.spec().id);
  std::set<int> secrets;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    game.reset(seed);
    secrets.insert(game.secret());
    float sender[3], receiver[4];
    game.observe(0, sender);
    game.observe(1, receiver);
    CHECK(hot_index(sender, 3) == game.secret());
    CHECK(hot_index(receiver, 4) == -1);  // nothing sent yet: all zeros
    for (float v : receiver) CHECK(v == 0.f);
    CHECK(game.to_move() == 0);
    const float signal = float(seed % 4);
    games::turn_result sent = game.step(&signal);
    CHECK(sent.rewards == std::vector<double>{0, 0});
    CHECK_FALSE(sent.terminated);
    CHECK(game.to_move() == 1);
    game.observe(1, receiver);
    CHECK(hot_index(receiver, 4) == int(signal));
    game.observe(0, sender);
    CHECK(hot_index(sender, 3) == game.secret());
    const float guess = float((game.secret() + seed % 2) % 3);  // right on even seeds
    const games::turn_result guessed = game.step(&guess);
    const double expected = seed % 2 == 0 ? 1.0 : -1.0;
    CHECK(guessed.rewards == std::vector<double>{expected, expected});
    CHECK(guessed.terminated);
  }
  CHECK(secrets == std::set<int>{0, 1, 2});  // every secret drawn
  // A person's click: the sender's cells are the middle column's four, the
  // receiver's the right column's three.
  game.reset(3);
  CHECK(game.action_at(0.5, 0.6) == 2);
  CHECK(game.action_at(0.9, 0.1) == -1);
  const float first = 1;
  game.step(&first);
  CHECK(game.action_at(0.9, 0.3) == 1);
  CHECK(game.action_at(0.9, 0.9) == -1);
  CHECK(game.action_at(0.5, 0.3) == -1);
  game.reset(3);
  const float bad_signal = 4, bad_guess = 3, fraction = 1.5f;
  CHECK_THROWS_AS(game.step(&bad_signal), std::invalid_argument);
  CHECK_THROWS_AS(game.step(&fraction), std::invalid_argument);
  const float ok = 0;
  game.step(&ok);
  CHECK_THROWS_AS(game.step(&bad_guess), std::invalid_argument);
}

TEST_CASE("seat_vector: the receiver's seat has the receiver's spaces; the sender's player sees the secret") {
  auto owned = std::make_unique<shifted_sender>();
  shifted_sender* sender = owned.get();
  games::seat_vector v(signal_games(4), games::seat_choice::second, std::move(owned));
  CHECK(v.spec().observation.describe() == "Box(4)");
  CHECK(v.spec().action.describe() == "Discrete(3)");
  std::vector<std::uint64_t> seeds = {11, 12, 13, 14};
  std::vector<float> obs(16), final_obs(16), guesses(4);
  std::vector<envs::step_result> res(4);
  v.reset(seeds.data(), obs.data());
  CHECK(sender->asked == 4);  // the sender moved first in every game
  // A viewer's record of the other seat's move: the sender's signal.
  envs::other_seat_view view;
  REQUIRE(v.other_seat(2, view));
  CHECK(view.action == std::vector<float>{float(hot_index(&obs[8], 4))});
  CHECK(view.action_space.describe() == "Discrete(4)");  // read in the sender's actions, not the receiver's
  CHECK(view.legal.empty());  // the sender has no mask
  // The receiver decodes signal s as secret s - 1: right every time but
  // where it guesses otherwise (game 3 guesses one more).
  for (int g = 0; g < 4; ++g) {
    const int signal = hot_index(&obs[size_t(4 * g)], 4);
    REQUIRE(signal >= 1);
    guesses[size_t(g)] = float((signal - 1 + (g == 3 ? 1 : 0)) % 3);
  }
  v.step(guesses.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  for (int g = 0; g < 4; ++g) {
    CAPTURE(g);
    CHECK(res[size_t(g)].reward == (g == 3 ? -1.0 : 1.0));
    CHECK(res[size_t(g)].terminated);
    CHECK(hot_index(&obs[size_t(4 * g)], 4) >= 1);  // the next game, its signal sent
  }
  CHECK(sender->asked == 8);
}

TEST_CASE("seat_vector: the sender's seat has the sender's spaces; the receiver's player is asked with the signal") {
  auto owned = std::make_unique<literal_receiver>();
  literal_receiver* receiver = owned.get();
  games::seat_vector v(signal_games(3), games::seat_choice::first, std::move(owned));
  CHECK(v.spec().observation.describe() == "Box(3)");
  CHECK(v.spec().action.describe() == "Discrete(4)");
  std::vector<std::uint64_t> seeds = {5, 6, 7};
  std::vector<float> obs(9), final_obs(9), signals(3);
  std::vector<envs::step_result> res(3);
  v.reset(seeds.data(), obs.data());
  CHECK(receiver->asked == 0);
  // Signal 3 is read as secret 0 by the literal receiver: right only when
  // the secret is 0. Otherwise the secret itself is sent.
  std::vector<int> secrets(3);
  for (int g = 0; g < 3; ++g) {
    secrets[size_t(g)] = hot_index(&obs[size_t(3 * g)], 3);
    REQUIRE(secrets[size_t(g)] >= 0);
    signals[size_t(g)] = g == 0 ? 3.f : float(secrets[size_t(g)]);
  }
  v.step(signals.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
  CHECK(receiver->asked == 3);
  CHECK(res[0].reward == (secrets[0] == 0 ? 1.0 : -1.0));
  CHECK(res[1].reward == 1.0);
  CHECK(res[2].reward == 1.0);
  for (const auto& r : res) CHECK(r.terminated);
}

TEST_CASE("agent spaces: a side that would alternate between agents of different spaces is refused, naming env.seat") {
  try {
    games::seat_vector v(signal_games(1), games::seat_choice::alternate, std::make_unique<literal_receiver>());
    FAIL("alternate seats of Signal-v0 were accepted");
  } catch (const envs::env_key_error& e) {
    CHECK(e.key == "env.seat");
    CHECK(std::string(e.what()).find("sender (Box(3) -> Discrete(4))") != std::string::npos);
    CHECK(std::string(e.what()).find("receiver (Box(4) -> Discrete(3))") != std::string::npos);
  }
  CHECK_THROWS_AS(games::seat_vector(lopsided_games(1), games::seat_choice::alternate,
                                    std::make_unique<fixed_player>(std::vector<float>{0}, 2, false)),
                  envs::env_key_error);
  // The registry makes the other side's player for that side's spaces.
  envs::env_config config;
  config.id = signal_game::id;
  std::string asked_for;
  auto side = catalog::make_game_side(config, 2, games::seat_choice::first, [&](const envs::env_spec& other) {
    asked_for = other.observation.describe() + " -> " + other.action.describe();
    return std::make_unique<literal_receiver>();
  });
  CHECK(asked_for == "Box(4) -> Discrete(3)");
  CHECK(side->spec().observation.describe() == "Box(3)");
  config.versus.seat = "second";
  CHECK(catalog::game_spec_of(config).observation.describe() == "Box(4)");
  config.versus.seat = "alternate";
  CHECK_THROWS_AS(catalog::game_spec_of(config), envs::env_key_error);
  CHECK(catalog::with_playable_seat(config).versus.seat == "first");
  const catalog::game_agents agents = catalog::game_agents_of(config);
  CHECK(agents.names == std::vector<std::string>{"sender", "receiver"});
  CHECK(agents.specs.at(1).action.describe() == "Discrete(3)");
}

TEST_CASE("seat_vector, simultaneous games: each side's actions reach the game in its own agent's width, the other asked in its spaces") {
  SUBCASE("the learner plays the small side") {
    auto owned = std::make_unique<fixed_player>(std::vector<float>{1, 3}, 5, true);
    fixed_player* large = owned.get();
    games::seat_vector v(lopsided_games(2), games::seat_choice::first, std::move(owned));
    CHECK(v.spec().observation.describe() == "Box(2)");
    std::vector<std::uint64_t> seeds = {1, 2};
    std::vector<float> obs(4), final_obs(4), actions = {2, 1};
    std::vector<envs::step_result> res(2);
    v.reset(seeds.data(), obs.data());
    v.step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
    CHECK(res[0].reward == doctest::Approx(2 + 10 + 300));
    CHECK(res[1].reward == doctest::Approx(1 + 10 + 300));
    CHECK(large->asked == 2);
    envs::other_seat_view view;
    REQUIRE(v.other_seat(0, view));
    CHECK(view.action == std::vector<float>{1, 3});
    CHECK(view.action_space.describe() == "MultiDiscrete([2 4])");
    CHECK(view.legal.size() == 6);
  }
  SUBCASE("the learner plays the large side") {
    auto owned = std::make_unique<fixed_player>(std::vector<float>{2}, 2, false);
    fixed_player* small = owned.get();
    games::seat_vector v(lopsided_games(3), games::seat_choice::second, std::move(owned));
    CHECK(v.spec().observation.describe() == "Box(5)");
    CHECK(v.spec().has_action_mask);
    std::vector<std::uint64_t> seeds = {1, 2, 3};
    std::vector<float> obs(15), final_obs(15), actions = {1, 2, 0, 3, 1, 0};
    std::vector<envs::step_result> res(3);
    std::vector<std::uint8_t> masks(18);
    v.reset(seeds.data(), obs.data());
    CHECK(obs[4] == 4.f);  // the large side's own five-float view
    v.action_masks(masks.data());
    CHECK(masks[5] == 0);
    CHECK(masks[4] == 1);
    v.step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
    CHECK(res[0].reward == doctest::Approx(-(2 + 10 + 200)));
    CHECK(res[1].reward == doctest::Approx(-(2 + 0 + 300)));
    CHECK(res[2].reward == doctest::Approx(-(2 + 10 + 0)));
    CHECK(small->asked == 3);
    v.step(actions.data(), seeds.data(), obs.data(), res.data(), final_obs.data());
    for (const auto& r : res) CHECK(r.terminated);
  }
}
}
