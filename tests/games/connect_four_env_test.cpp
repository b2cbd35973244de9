// ConnectFour-v0 (games/builtin/connect_four_env.hpp): one agent against a
// built-in opponent, checked through what the agent sees: its observation
// planes (with a four-in-a-row finder of its own), rewards and masks.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <stdexcept>
#include <vector>

#include "catalog/players.hpp"
#include "envs/env_config.hpp"
#include "envs/env_error.hpp"
#include "games/builtin/connect_four_alphabeta.hpp"
#include "games/builtin/connect_four_env.hpp"
#include "games/builtin/connect_four_game.hpp"

using troupe::envs::env_key_error;
using troupe::games::connect_four;
using troupe::games::connect_four_env;
namespace board_games = troupe::games;

namespace {

// The opponent ConnectFour-v0 is made with from env.opponent's `name`.
std::unique_ptr<troupe::games::opponents> player(const std::string& name) {
  return troupe::catalog::builtin_opponents(name, 1, troupe::envs::env_config{},
                                            troupe::games::connect_four_game().spec(), "env.opponent");
}

using observation = std::vector<float>;

float at(const observation& o, int r, int c, int plane) { return o[size_t((r * 7 + c) * 2 + plane)]; }

int pieces(const observation& o, int plane) {
  int n = 0;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 7; ++c) n += at(o, r, c, plane) == 1 ? 1 : 0;
  return n;
}

// Four of a plane's pieces in a line anywhere on the board.
bool has_four(const observation& o, int plane) {
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 7; ++c)
      for (auto [dr, dc] : {std::pair{0, 1}, {1, 0}, {1, 1}, {1, -1}}) {
        int k = 0;
        while (k < 4 && r + k * dr >= 0 && r + k * dr < 6 && c + k * dc >= 0 && c + k * dc < 7 &&
               at(o, r + k * dr, c + k * dc, plane) == 1)
          ++k;
        if (k == 4) return true;
      }
  return false;
}

struct tally {
  int episodes = 0, wins = 0, losses = 0, draws = 0, second_seat = 0;
};

// Plays `episodes` episodes, the agent's column from `choose`, checking what
// every step shows against the rules.
template <class Choose>
tally play(connect_four_env& env, int episodes, std::uint64_t seed, Choose choose) {
  tally t;
  observation obs(connect_four::observation_size);
  for (int e = 0; e < episodes; ++e) {
    env.reset(seed + std::uint64_t(e), obs.data());
    const bool second = pieces(obs, 1) == 1;
    REQUIRE(pieces(obs, 0) == 0);
    REQUIRE(pieces(obs, 1) == (second ? 1 : 0));
    REQUIRE(env.seat() == (second ? 1 : 0));
    t.second_seat += second ? 1 : 0;
    for (;;) {
      std::uint8_t mask[7];
      env.action_mask(mask);
      for (int c = 0; c < 7; ++c) REQUIRE(mask[c] == (at(obs, 0, c, 0) + at(obs, 0, c, 1) == 0 ? 1 : 0));
      const float action = float(choose(env, mask));
      const troupe::envs::step_result step = env.step(&action, obs.data());
      CHECK_FALSE(step.truncated);
      if (!step.terminated) {
        REQUIRE(step.reward == 0);
        REQUIRE(pieces(obs, 1) == pieces(obs, 0) + (second ? 1 : 0));
        REQUIRE_FALSE(has_four(obs, 0));
        REQUIRE_FALSE(has_four(obs, 1));
        continue;
      }
      if (step.reward == 1) {
        REQUIRE(has_four(obs, 0));
        REQUIRE_FALSE(has_four(obs, 1));
        // The agent's move ended it: the opponent did not reply.
        REQUIRE(pieces(obs, 0) == pieces(obs, 1) + (second ? 0 : 1));
        ++t.wins;
      } else if (step.reward == -1) {
        REQUIRE(has_four(obs, 1));
        REQUIRE_FALSE(has_four(obs, 0));
        ++t.losses;
      } else {
        REQUIRE(step.reward == 0);
        REQUIRE(pieces(obs, 0) + pieces(obs, 1) == 42);
        ++t.draws;
      }
      break;
    }
    ++t.episodes;
  }
  return t;
}

int random_legal(std::mt19937_64& rng, const std::uint8_t* mask) {
  std::vector<int> open;
  for (int c = 0; c < 7; ++c)
    if (mask[c]) open.push_back(c);
  return open[rng() % open.size()];
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("ConnectFour-v0: random against random, every step as the rules say, from both seats") {
  connect_four_env env("alternate", player("random"));
  CHECK(env.spec().observation.shape == std::vector<int>{6, 7, 2});
  CHECK(env.spec().action.n == 7);
  CHECK(env.spec().has_action_mask);
  std::mt19937_64 rng(1);
  const tally t = play(env, 400, 100, [&](connect_four_env&, const std::uint8_t* mask) { return random_legal(rng, mask); });
  CHECK(t.second_seat > 150);
  CHECK(t.second_seat < 250);
  CHECK(t.wins > 100);
  CHECK(t.losses > 100);
  CHECK(t.wins + t.losses + t.draws == 400);
}

TEST_CASE("ConnectFour-v0: the reward of a loss arrives on the opponent's move, a win's on the agent's") {
  SUBCASE("alpha-beta beats an agent that always plays the leftmost open column") {
    connect_four_env env("first", player("alphabeta:2"));
    const tally t = play(env, 10, 7, [](connect_four_env&, const std::uint8_t* mask) {
      int c = 0;
      while (!mask[c]) ++c;
      return c;
    });
    CHECK(t.losses == 10);
  }
  SUBCASE("an agent searching 4 moves deep beats the random opponent from either seat") {
    connect_four_env env("alternate", player("random"));
    std::mt19937_64 rng(5);
    const tally t = play(env, 40, 300, [&](connect_four_env& e, const std::uint8_t*) {
      connect_four game = e.board();
      return board_games::alphabeta_move(game, 4, &rng);
    });
    CHECK(t.wins >= 36);
    CHECK(t.second_seat > 5);
  }
}

TEST_CASE("ConnectFour-v0: a seed is an episode") {
  for (const char* opponent : {"random", "alphabeta:3"}) {
    CAPTURE(opponent);
    connect_four_env a("alternate", player(opponent)), b("alternate", player(opponent));
    observation oa(connect_four::observation_size), ob(connect_four::observation_size);
    a.reset(42, oa.data());
    b.reset(42, ob.data());
    for (int k = 0; k < 30; ++k) {
      REQUIRE(oa == ob);
      std::uint8_t mask[7];
      a.action_mask(mask);
      int c = k % 7;
      while (!mask[c]) c = (c + 1) % 7;
      const float action = float(c);
      const auto ra = a.step(&action, oa.data());
      const auto rb = b.step(&action, ob.data());
      REQUIRE(ra.reward == rb.reward);
      REQUIRE(ra.terminated == rb.terminated);
      if (ra.terminated) break;
    }
  }
}

TEST_CASE("ConnectFour-v0: bad options and illegal columns are refused with their reason") {
  CHECK_THROWS_WITH_AS(connect_four_env("first", player("alphabeta:9")),
                       doctest::Contains("env.opponent"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(connect_four_env("first", player("minimax")), doctest::Contains("env.opponent"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(connect_four_env("middle", player("random")), doctest::Contains("env.seat"),
                       std::invalid_argument);
  try {  // a seat by name that two players do not have
    connect_four_env("third", player("random"));
    FAIL("a third seat of Connect Four was taken");
  } catch (const env_key_error& e) {
    CHECK(e.key == "env.seat");
    CHECK(std::string(e.what()).find("no third seat") != std::string::npos);
  }
  connect_four_env env("first", player("random"));
  observation obs(connect_four::observation_size);
  env.reset(1, obs.data());
  const float outside = 7, fraction = 2.5f;
  CHECK_THROWS_AS(env.step(&outside, obs.data()), std::invalid_argument);
  CHECK_THROWS_AS(env.step(&fraction, obs.data()), std::invalid_argument);
  // Column 0 filled while the game goes on (the opponent plays there too),
  // then played once more: refused.
  const float zero = 0;
  bool refused = false;
  for (std::uint64_t seed = 1; seed <= 50 && !refused; ++seed) {
    env.reset(seed, obs.data());
    bool over = false;
    while (env.board().legal(0) && !over) over = env.step(&zero, obs.data()).terminated;
    if (over) continue;
    CHECK_THROWS_AS(env.step(&zero, obs.data()), std::invalid_argument);
    refused = true;
  }
  CHECK(refused);
}
}
