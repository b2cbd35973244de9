#pragma once
// Connect Four as a turn-based game of two agents (games/turn_based_env.hpp),
// PettingZoo connect_four_v3's environment: agents player_0 (moves first) and
// player_1, each observing the board from its side (6 x 7 x 2: plane 0 its
// own pieces, plane 1 the other's, row 0 the top), an action a column (7),
// the mask the columns not full, +1 to the winner and -1 to the loser on the
// winning move, 0 to both for a draw and every other move.
#include <cstdint>
#include <string>

#include "envs/render.hpp"
#include "games/builtin/connect_four.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::renderable;
using envs::rgb_frame;

class connect_four_game final : public turn_based_env, public renderable {
 public:
  static constexpr const char* id = "ConnectFour-v0";
  connect_four_game();

  const env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int agent) const override { return "player_" + std::to_string(agent); }
  void reset(std::uint64_t) override { game_.reset(); }
  int to_move() const override { return game_.to_move(); }
  void observe(int agent, float* observation) const override { game_.observe(agent, observation); }
  void action_mask(std::uint8_t* legal) const override { game_.legal_moves(legal); }
  // Throws std::invalid_argument on a value that is no column or a full one.
  turn_result step(const float* action) override;
  void render(rgb_frame& frame) const override;
  int action_at(double u, double v) const override;  // the column clicked

  const connect_four& board() const { return game_; }

 private:
  env_spec spec_;
  connect_four game_;
};

}  // namespace troupe::games
