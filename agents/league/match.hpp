#pragma once
// A trained policy against an opponent in a two-player game
// (games/seat_vector.hpp), seat by seat: wins, draws and losses, with a
// confidence interval on the win rate. Plain C++, no actors: `troupe eval
// --opponent` and the tests play matches with it.
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "envs/env_config.hpp"
#include "games/opponents.hpp"
#include "games/seats.hpp"
#include "model/shared_model.hpp"

namespace troupe::agents {

struct seat_record {
  int wins = 0, draws = 0, losses = 0;
  double return_sum = 0.0;  // the policy's returns, summed
  double length_mean = 0.0;  // the policy's own moves a game, on average
  int games() const { return wins + draws + losses; }
  double mean_return() const { return games() > 0 ? return_sum / games() : 0.0; }
};

// Wilson's score interval for `successes` of `n` at z (1.96: 95 %): [lo, hi].
std::pair<double, double> wilson_interval(int successes, int n, double z = 1.96);

// The other seat played by a trained model (a self-play snapshot, another
// run's policy): actions sampled from its policy (or its most likely ones
// with `greedy`), each game from a stream seeded at its episode's start. A
// recurrent model carries a state per game and agent it moves for
// (agents/league/opponent_states.hpp).
// `watch`, when set, sees every move it makes: the policy's outputs, the
// action and the mask (null without one), as a viewer's panel shows them.
using move_watcher = std::function<void(const float* policy, const float* action, const std::uint8_t* legal)>;
std::unique_ptr<games::opponents> model_opponents(std::shared_ptr<model::shared_model> model, int games,
                                                 const envs::env_spec& spec, bool greedy = false,
                                                 move_watcher watch = {});

// What plays the other seat of `games` games at once, of the game `spec` describes.
using opponents_factory = std::function<std::unique_ptr<games::opponents>(int games, const envs::env_spec& spec)>;

// `episodes` games of `env`'s game with `model` (greedy or sampled) in
// `seat` (a fixed one) against `others` (every other seat); a game's return
// decides it (> 0 a win, 0 a draw, < 0 a loss). Game i depends on (seed, i) alone.
seat_record play_seat(model::shared_model& model, const envs::env_config& env, games::seat_choice seat,
                      const opponents_factory& others, int episodes, bool greedy, std::uint64_t seed,
                      int parallel = 64);

}  // namespace troupe::agents
