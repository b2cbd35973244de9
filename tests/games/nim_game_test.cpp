// Nim3-v0 (games/builtin/nim_game.hpp): its rules on set states, and, played
// from each seat through games::seat_vector against random players, the
// returns that an exact calculation written here says a random player and
// the best reply to random players get. The calculation knows nothing of
// the game's class or of seat_vector: it checks the rules, the credit of a
// loss that arrives on another agent's move, and the seats' turn order of
// a game of three agents.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "catalog/players.hpp"
#include "games/builtin/nim_game.hpp"
#include "games/seat_vector.hpp"

using namespace troupe;
using games::nim_game;

namespace {

// win[left][turn]: the chance that the learner wins with `left` counters
// left and the player `turn` places after the learner to move (0: the
// learner), the other two taking 1-3 (no more than are left) uniformly at
// random, and the learner at random too, or taking best_take[left].
struct nim_odds {
  std::array<std::array<double, 3>, 16> win{};
  std::array<int, 16> best_take{};
  explicit nim_odds(bool learner_random) {
    for (int left = 1; left <= 15; ++left) {
      // Every value needs only smaller piles'.
      double best = -1.0, mean = 0.0;
      const int takes = std::min(3, left);
      for (int t = 1; t <= takes; ++t) {
        const double p = t == left ? 1.0 : win[size_t(left - t)][1];
        mean += p / takes;
        if (p > best + 1e-12) best = p, best_take[size_t(left)] = t;
      }
      win[size_t(left)][0] = learner_random ? mean : best;
      for (int turn : {2, 1}) {
        double value = 0.0;
        for (int t = 1; t <= takes; ++t)
          value += (t == left ? 0.0 : win[size_t(left - t)][size_t((turn + 1) % 3)]) / takes;
        win[size_t(left)][size_t(turn)] = value;
      }
    }
  }
};

// The learner's policy: takes what `odds` says is best.
struct best_reply {
  const nim_odds& odds;
  float action(const float* view) const {
    int left = 0;
    while (view[left] == 0.f) ++left;
    return float(odds.best_take[size_t(left)] - 1);
  }
};

// The mean return of `episodes` episodes from `seat` against random
// players, the learner playing best (`odds`) or at random.
double mean_return(games::seat_choice seat, const nim_odds* odds, int episodes, std::uint64_t seed) {
  envs::env_config config;
  config.id = nim_game::id;
  const int k = 16;
  auto v = catalog::make_game_side(config, k, seat, [&](const envs::env_spec& spec) {
    return catalog::builtin_opponents("random", k, config, spec, "env.opponent");
  });
  const size_t n = static_cast<size_t>(k);
  std::vector<float> obs(n * nim_game::observation_size), final_obs(obs.size()), actions(n);
  std::vector<std::uint8_t> masks(n * 3);
  std::vector<envs::step_result> results(n);
  std::vector<std::uint64_t> seeds(n);
  std::mt19937_64 rng(seed);
  for (auto& s : seeds) s = rng();
  v->reset(seeds.data(), obs.data());
  std::vector<double> returns(n, 0.0);
  double total = 0.0;
  int done = 0;
  while (done < episodes) {
    v->action_masks(masks.data());
    for (int g = 0; g < k; ++g) {
      const float* view = &obs[size_t(g) * nim_game::observation_size];
      if (odds) {
        actions[size_t(g)] = best_reply{*odds}.action(view);
      } else {
        int legal = 0;
        while (legal < 3 && masks[size_t(g) * 3 + size_t(legal)]) ++legal;
        actions[size_t(g)] = float(rng() % std::uint64_t(legal));
      }
    }
    for (auto& s : seeds) s = rng();
    v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    for (int g = 0; g < k; ++g) {
      returns[size_t(g)] += results[size_t(g)].reward;
      if (!results[size_t(g)].terminated) {
        REQUIRE_FALSE(results[size_t(g)].truncated);
        continue;
      }
      total += returns[size_t(g)];
      returns[size_t(g)] = 0.0;
      ++done;
    }
  }
  return total / done;
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("Nim3-v0: takes, the mask, the views from each seat, the win and the zero-sum rewards") {
  nim_game game;
  CHECK(game.agent_count() == 3);
  CHECK(game.agent_name(2) == "player_2");
  CHECK(game.spec().observation.flat_size() == 19);
  CHECK(game.spec().action.choice_count() == 3);
  CHECK(game.spec().has_action_mask);
  game.reset(7);
  CHECK(game.left() == 15);
  CHECK(game.to_move() == 0);
  std::vector<float> view(19);
  game.observe(1, view.data());
  CHECK(view[15] == 1.f);
  CHECK(view[16 + 2] == 1.f);  // player_0, who moves, is two places after player_1
  float take = 2;              // three counters
  games::turn_result r = game.step(&take);
  CHECK(r.rewards == std::vector<double>{0, 0, 0});
  CHECK_FALSE(r.terminated);
  CHECK(game.left() == 12);
  CHECK(game.to_move() == 1);
  game.observe(1, view.data());
  CHECK(view[12] == 1.f);
  CHECK(view[16] == 1.f);  // its own move
  game.set(2, 2);
  std::uint8_t legal[3];
  game.action_mask(legal);
  CHECK(legal[0] == 1);
  CHECK(legal[1] == 1);
  CHECK(legal[2] == 0);
  CHECK_THROWS_AS(game.step(&take), std::invalid_argument);  // three of two
  float bad = 1.5f;
  CHECK_THROWS_AS(game.step(&bad), std::invalid_argument);
  CHECK(game.left() == 2);
  take = 1;  // both: player_2 wins
  r = game.step(&take);
  CHECK(r.terminated);
  CHECK(r.rewards == std::vector<double>{-0.5, -0.5, 1.0});
  CHECK(game.left() == 0);
  CHECK(catalog::is_versus_game(nim_game::id));
  CHECK(catalog::is_turn_based_game(nim_game::id));
}

TEST_CASE("Nim3-v0 from each seat against random players: the returns an exact calculation gives") {
  const nim_odds random_play(true), best_play(false);
  // Over 6000 episodes a return of 1 or -0.5 has a standard error below
  // 0.75 / sqrt(6000) = 0.0097; 0.04 is four of them.
  const int episodes = 6000;
  for (int seat = 0; seat < 3; ++seat) {
    CAPTURE(seat);
    // The learner at seat s moves after s random moves: turn (3 - s) % 3.
    const size_t turn = size_t((3 - seat) % 3);
    const double random_win = random_play.win[15][turn], best_win = best_play.win[15][turn];
    const double random_mean = mean_return(games::seat_at(seat), nullptr, episodes, 11 + std::uint64_t(seat));
    const double best_mean = mean_return(games::seat_at(seat), &best_play, episodes, 21 + std::uint64_t(seat));
    CHECK(std::abs(random_mean - (1.5 * random_win - 0.5)) < 0.04);
    CHECK(std::abs(best_mean - (1.5 * best_win - 0.5)) < 0.04);
    CHECK(best_win > random_win + 0.1);  // there is something to learn from every seat
  }
  // The three random players' chances sum to 1.
  CHECK(random_play.win[15][0] + random_play.win[15][1] + random_play.win[15][2] == doctest::Approx(1.0));
}

TEST_CASE("Nim3-v0: alternate draws each of the three seats; a fourth is refused") {
  envs::env_config config;
  config.id = nim_game::id;
  const auto random = [&](const envs::env_spec& spec) {
    return catalog::builtin_opponents("random", 1, config, spec, "env.opponent");
  };
  auto v = catalog::make_game_side(config, 1, games::seat_choice::alternate, random);
  auto* seats = dynamic_cast<games::seat_vector*>(v.get());
  REQUIRE(seats);
  std::array<int, 3> drawn{};
  std::vector<float> obs(19);
  for (std::uint64_t s = 0; s < 300; ++s) {
    v->reset(&s, obs.data());
    drawn[size_t(seats->seat(0))]++;
  }
  for (int n : drawn) CHECK(n > 70);
  CHECK_THROWS_WITH_AS(catalog::make_game_side(config, 1, games::parse_seat("fourth"), random),
                       doctest::Contains("no fourth seat"), envs::env_key_error);
  CHECK(games::parse_seat("third") == games::seat_at(2));
  CHECK(games::seat_name(2) == "third");
  CHECK_THROWS_WITH_AS(games::parse_seat("eleventh"), doctest::Contains("env.seat"), std::invalid_argument);
}
}
