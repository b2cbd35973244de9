#pragma once
// ConnectFour-v0 as one agent's environment: Connect Four
// (games/builtin/connect_four_game.hpp) in the seat env.seat names (alternate:
// drawn per episode from the reset's seed), against the player it is given
// (the catalog makes env.opponent's: random, or alphabeta:DEPTH;
// catalog/players.hpp), through games/seat_vector.hpp. A step is the
// agent's move and then, if the game goes on, the opponent's: the reward is
// +1 when the agent's move makes four, -1 when the opponent's reply does, 0
// for a draw and every other step. Going second, the opponent's first move
// is made at the reset. An illegal column never reaches it when the mask is
// honoured; if one does, the step throws (a failing environment).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/env_config.hpp"
#include "envs/render.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "games/seat_vector.hpp"

namespace troupe::games {

using envs::env;
using envs::env_spec;
using envs::other_seat_view;
using envs::renderable;
using envs::rgb_frame;
using envs::step_result;

class connect_four_env final : public env, public renderable {
 public:
  static constexpr const char* id = connect_four_game::id;
  // `seat` as env.seat takes it; throws std::invalid_argument or
  // env_key_error naming env.seat when it is not one of Connect Four's.
  connect_four_env(const std::string& seat, std::unique_ptr<opponents> opponent);

  const env_spec& spec() const override { return seats_.spec(); }
  void reset(std::uint64_t seed, float* observation) override { seats_.reset(&seed, observation); }
  step_result step(const float* action, float* observation) override;
  void action_mask(std::uint8_t* legal) const override { seats_.action_masks(legal); }
  void render(rgb_frame& frame) const override { game().render(frame); }
  int action_at(double u, double v) const override { return game().action_at(u, v); }
  bool other_seat(other_seat_view& view) const override { return seats_.other_seat(0, view); }

  // The seat the agent plays this episode: 0 moves first.
  int seat() const { return seats_.seat(0); }
  const connect_four& board() const { return game().board(); }

 private:
  const connect_four_game& game() const { return *game_; }

  const connect_four_game* game_;  // the one game, which seats_ holds
  seat_vector seats_;
  std::vector<float> final_observation_;
};

}  // namespace troupe::games
