#pragma once
// Duel Pong: two paddles, one ball, both players moving at every step (a
// simultaneous-move game, games/simultaneous_env.hpp). Agent 0 ("left")
// guards x = 0, agent 1 ("right") x = 1; the court is the unit square, y
// down. A paddle stays, moves up or moves down (actions 0, 1, 2) by 0.03 a
// step; the ball bounces off the top and bottom, and off a paddle that
// covers it, a little faster each time and deflected by where it hit. A
// ball past a paddle ends the game: +1 to the other player, -1 to the one
// who missed; 1000 steps without a miss cut it (truncated, 0 each). Each
// agent sees the court from its own side, as if it guarded x = 0: [its
// paddle's y, the other's y, the ball's x and y, its velocity (x, y) over
// their caps]. The serve's direction and angle come from the reset's seed.
#include <cstdint>
#include <random>
#include <string>

#include "envs/render.hpp"
#include "games/simultaneous_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::renderable;
using envs::rgb_frame;

class duel_pong final : public simultaneous_env, public renderable {
 public:
  static constexpr const char* id = "DuelPong-v0";
  static constexpr double paddle_half = 0.08, paddle_speed = 0.03;
  static constexpr double serve_speed = 0.02, max_speed_x = 0.04, max_speed_y = 0.04;
  static constexpr int step_limit = 1000;

  duel_pong();

  const env_spec& spec() const override { return spec_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int agent) const override { return agent == 0 ? "left" : "right"; }
  void reset(std::uint64_t seed) override;
  void observe(int agent, float* observation) const override;
  // Throws std::invalid_argument on an action that is not 0, 1 or 2.
  joint_result step(const float* actions) override;
  void render(rgb_frame& frame) const override;

  // The state, for tests: paddles' y, the ball, its velocity.
  struct state {
    double paddle[2] = {0.5, 0.5};
    double x = 0.5, y = 0.5, vx = 0.0, vy = 0.0;
    int steps = 0;
  };
  const state& now() const { return s_; }
  void set(const state& s) { s_ = s; }

 private:
  env_spec spec_;
  state s_;
};

}  // namespace troupe::games
