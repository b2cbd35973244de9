#pragma once
// Contest: two teams of two contend for two landmarks (a competitive game
// of four agents, all acting at every step: games/simultaneous_env.hpp). A
// 5 x 5 grid holds two landmarks on distinct cells and the four agents
// (red_0, red_1, blue_0, blue_1) on distinct cells, drawn from the reset's
// seed. Each agent stays or moves one cell up, down, left or right (actions
// 0-4; a wall keeps it where it is). After each step a landmark is held by
// a team when agents of that team stand on it and none of the other's. The
// step gives each red agent 0.02 x (landmarks red holds - landmarks blue
// holds) and each blue agent the opposite: the game is zero-sum, and a team
// that holds both landmarks for all 25 steps (the episode's length,
// truncated) scores 1. Each team wants both landmarks, so its two agents do
// best when they split up, and when they keep the other team off.
//
// Agent i sees, in [-1, 1]: its own cell (x, y over 4), each landmark's
// offset, its teammate's, the other team's two agents' (in their order),
// and which of its team it is (one-hot): the same view for either team, so
// one network can play both.
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

class contest_game final : public simultaneous_env, public renderable {
 public:
  static constexpr const char* id = "Contest-v0";
  static constexpr int agents = 4, landmarks = 2, side = 5, step_limit = 25;
  static constexpr double hold_reward = 0.02;
  static constexpr int observation_size = 2 + 2 * landmarks + 2 * (agents - 1) + 2;

  // A view's cells and offsets are over this.
  static constexpr float view_scale = float(side - 1);

  contest_game();

  const env_spec& spec() const override { return spec_; }
  int agent_count() const override { return agents; }
  // red_0, red_1 (agents 0 and 1), blue_0, blue_1 (agents 2 and 3).
  std::string agent_name(int agent) const override;
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
  // The team holding landmark l now: 0 red, 1 blue, -1 neither.
  int holder(int l) const;

 private:
  env_spec spec_;
  state s_;
};

}  // namespace troupe::games
