#pragma once
// MountainCarContinuous-v0 with Gymnasium 1.4.0's dynamics, step for step:
// float64 arithmetic, a state rounded to float32 after every step, and the
// goal test made on the float64 values before that rounding.
#include <array>

#include "envs/episode_env.hpp"

namespace troupe::envs {

class mountain_car_continuous final : public episode_env<std::array<double, 2>> {
 public:
  static constexpr double min_action = -1.0;
  static constexpr double max_action = 1.0;
  static constexpr double min_position = -1.2;
  static constexpr double max_position = 0.6;
  static constexpr double max_speed = 0.07;
  static constexpr double goal_position = 0.45;
  static constexpr double goal_velocity = 0.0;
  static constexpr double power = 0.0015;
  static constexpr double gravity = 0.0025;
  static constexpr double goal_reward = 100.0;
  static constexpr double action_cost = 0.1;
  static constexpr double reset_low = -0.6;
  static constexpr double reset_high = -0.4;
  static constexpr int max_steps = 999;

  // State: position, velocity (float32 values after any step).
  struct transition_result {
    state_type state;  // rounded to float32, as the env stores it
    bool terminated;   // decided on the float64 values before rounding
  };

  mountain_car_continuous();
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  // `force` is the action as given; it is clipped to [-1, 1] for the physics.
  static transition_result transition(const state_type& s, double force);
  // The goal bonus less the cost of the unclipped action.
  static double reward(double force, bool terminated);

 private:
  state_type initial_state(std::mt19937_64& rng) override;
  step_result advance(const float* action) override;
  void write_observation(float* observation) const override;
};

}  // namespace troupe::envs
