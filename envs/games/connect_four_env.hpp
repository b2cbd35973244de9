#pragma once
// ConnectFour-v0: Connect Four (envs/games/connect_four.hpp) played as one
// agent against a built-in opponent (env.opponent: random, or
// alphabeta:DEPTH, envs/games/connect_four_alphabeta.hpp), in the seat
// env.seat names (alternate: drawn per episode from the reset's seed). The
// observation is PettingZoo connect_four_v3's for the agent's seat (6 x 7 x
// 2: plane 0 the agent's pieces, plane 1 the opponent's, row 0 the top), the
// action a column (7), the action mask the columns not full. A step is the
// agent's move and then, if the game goes on, the opponent's: the reward is
// +1 when the agent's move makes four, -1 when the opponent's reply does, 0
// for a draw and every other step. Going second, the opponent's first move
// is made at the reset. An illegal column never reaches it when the mask is
// honoured; if one does, the step throws (a failing environment).
#include <cstdint>
#include <random>

#include "envs/env_config.hpp"
#include "envs/games/connect_four.hpp"
#include "envs/render.hpp"
#include "envs/env.hpp"

namespace troupe::envs::games {

class connect_four_env final : public env, public renderable {
 public:
  static constexpr const char* id = "ConnectFour-v0";
  // Throws std::invalid_argument naming the option that is not one of its values.
  explicit connect_four_env(const opponent_options& options);

  const env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t seed, float* observation) override;
  step_result step(const float* action, float* observation) override;
  void action_mask(std::uint8_t* legal) const override { game_.legal_moves(legal); }
  void render(rgb_frame& frame) const override;

  // The seat the agent plays this episode: 0 moves first.
  int seat() const { return seat_; }
  const connect_four& game() const { return game_; }

 private:
  int opponent_move();

  env_spec spec_;
  int depth_ = 0;  // 0: a random opponent
  int seat_choice_ = -1;  // -1: alternate
  int seat_ = 0;
  connect_four game_;
  std::mt19937_64 rng_;
};

}  // namespace troupe::envs::games
