#pragma once
// Spread: three agents must cover three landmarks together (the task of
// PettingZoo MPE's simple_spread, on a grid): a cooperative game of more
// than two agents, all acting at every step (games/simultaneous_env.hpp). A
// 5 x 5 grid holds three landmarks on distinct cells and three agents on
// distinct cells, drawn from the reset's seed. Each agent stays or moves
// one cell up, down, left or right (actions 0-4; a wall keeps it where it
// is). Every step rewards every agent alike with minus the sum, over the
// landmarks, of the grid distance (|dx| + |dy|) from the landmark to its
// nearest agent, over 24 (so a step is worth between -1 and 0); an agent
// that ends a step on another's cell is given -0.25 more for each agent it
// shares the cell with. 25 steps cut the episode (truncated), as MPE's
// max_cycles does. No agent can cover every landmark alone: the team does
// well only when each agent takes a landmark of its own.
//
// Agent i ("agent_i") sees, in [-1, 1]: its own cell (x, y over 4), each
// landmark's offset from it (over 4, landmarks in a fixed order), each
// other agent's offset (in agent order), and its own index one-hot.
#include <array>
#include <cstdint>
#include <string>

#include "envs/render.hpp"
#include "games/builtin/grid_moves.hpp"
#include "games/simultaneous_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::renderable;
using envs::rgb_frame;

class spread_game final : public simultaneous_env, public renderable {
 public:
  static constexpr const char* id = "Spread-v0";
  static constexpr int agents = 3, landmarks = 3, side = 5, step_limit = 25;
  static constexpr double collision_penalty = 0.25;
  static constexpr int observation_size = 2 + 2 * landmarks + 2 * (agents - 1) + agents;

  // A view's cells and offsets are over this.
  static constexpr float view_scale = float(side - 1);

  spread_game();

  const env_spec& spec() const override { return spec_; }
  int agent_count() const override { return agents; }
  std::string agent_name(int agent) const override { return "agent_" + std::to_string(agent); }
  void reset(std::uint64_t seed) override;
  void observe(int agent, float* observation) const override;
  // Throws std::invalid_argument on an action that is not 0-4.
  joint_result step(const float* actions) override;
  void render(rgb_frame& frame) const override;

  using cell = grid::cell;
  // The state, for tests.
  struct state {
    std::array<cell, agents> agent{};
    std::array<cell, landmarks> landmark{};
    int steps = 0;
  };
  const state& now() const { return s_; }
  void set(const state& s) { s_ = s; }

 private:
  env_spec spec_;
  state s_;
};

}  // namespace troupe::games
