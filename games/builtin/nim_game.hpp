#pragma once
// Nim for three players: a turn-based game of more than two agents
// (games/turn_based_env.hpp). A pile of 15 counters; player_0, player_1 and
// player_2 take 1, 2 or 3 of them in turn (actions 0, 1, 2; the mask allows
// no more than are left), and whoever takes the last counter wins: +1 to the
// winner and -0.5 to each of the others, on the winning move (zero-sum). So
// the loss of the two who did not take it arrives on another agent's move.
//
// Agent i sees the counters left (one-hot, 0-15) and whose move it is
// counted from itself (one-hot: its own, the next player's, the one after).
// Unlike Nim for two, no player can force a win here: how well a player does
// depends on how the others play. Against players who take at random, the
// best a player can do from each seat is worked out in
// tests/games/nim_game_test.cpp.
#include <cstdint>
#include <string>

#include "envs/render.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::renderable;
using envs::rgb_frame;

class nim_game final : public turn_based_env, public renderable {
 public:
  static constexpr const char* id = "Nim3-v0";
  static constexpr int players = 3, pile = 15, most_taken = 3;
  static constexpr double win = 1.0, loss = -0.5;
  static constexpr int observation_size = (pile + 1) + players;

  nim_game();

  const env_spec& spec() const override { return spec_; }
  int agent_count() const override { return players; }
  std::string agent_name(int agent) const override { return "player_" + std::to_string(agent); }
  void reset(std::uint64_t) override;
  int to_move() const override { return mover_; }
  void observe(int agent, float* observation) const override;
  void action_mask(std::uint8_t* legal) const override;
  // Throws std::invalid_argument on an action that is not 0-2, or takes
  // more counters than are left.
  turn_result step(const float* action) override;
  void render(rgb_frame& frame) const override;

  int left() const { return left_; }
  // The state, for tests: `counters` left, `mover` to move.
  void set(int counters, int mover);

 private:
  env_spec spec_;
  int left_ = pile, mover_ = 0;
};

}  // namespace troupe::games
