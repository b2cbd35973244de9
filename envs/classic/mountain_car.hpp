#pragma once
// MountainCar-v0 with Gymnasium 1.4.0's dynamics, step for step: the velocity
// moves with the old position's slope, the position with the new velocity,
// and the left wall stops a car that runs into it.
#include <array>

#include "envs/episode_env.hpp"

namespace troupe::envs {

class mountain_car final : public episode_env<std::array<double, 2>> {
 public:
  static constexpr double min_position = -1.2;
  static constexpr double max_position = 0.6;
  static constexpr double max_speed = 0.07;
  static constexpr double goal_position = 0.5;
  static constexpr double goal_velocity = 0.0;
  static constexpr double force = 0.001;
  static constexpr double gravity = 0.0025;
  static constexpr double reset_low = -0.6;
  static constexpr double reset_high = -0.4;
  static constexpr int max_steps = 200;

  // State: position, velocity.
  mountain_car();
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  // Actions: 0 push left, 1 no push, 2 push right.
  static state_type transition(const state_type& s, int action);
  static bool is_terminal(const state_type& s);

  // The picture both mountain cars share: the hill y = 0.45 sin(3x) + 0.55,
  // the car at `position` tilted with the slope, and a flag at the goal.
  static void draw_scene(rgb_frame& frame, double position, double goal);

 private:
  state_type initial_state(std::mt19937_64& rng) override;
  step_result advance(const float* action) override;
  void write_observation(float* observation) const override;
};

}  // namespace troupe::envs
