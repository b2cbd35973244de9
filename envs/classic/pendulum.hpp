#pragma once
// Pendulum-v1 with Gymnasium 1.4.0's dynamics, step for step: a semi-implicit
// update (the clipped new angular velocity advances the angle), an angle that
// is never wrapped in the state, and a cost on the state before the step.
#include <array>

#include "envs/episode_env.hpp"

namespace troupe::envs {

class pendulum final : public episode_env<std::array<double, 2>> {
 public:
  static constexpr double pi = 3.14159265358979323846;
  static constexpr double max_speed = 8.0;
  static constexpr double max_torque = 2.0;
  static constexpr double dt = 0.05;
  static constexpr double gravity = 10.0;
  static constexpr double mass = 1.0;
  static constexpr double length = 1.0;
  static constexpr double reset_theta_bound = pi;
  static constexpr double reset_speed_bound = 1.0;
  static constexpr int max_steps = 200;

  // State: theta (0 = upright, not wrapped), theta_dot.
  pendulum();
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  // `torque` is the action as given; both functions clip it to the bounds.
  static state_type transition(const state_type& s, double torque);
  // The reward of acting with `torque` in `s` (the state before the step).
  static double reward(const state_type& s, double torque);
  // Into [-pi, pi), with a floor-style modulo as numpy's `%` does.
  static double angle_normalize(double theta);

 private:
  state_type initial_state(std::mt19937_64& rng) override;
  step_result advance(const float* action) override;
  void write_observation(float* observation) const override;

  double last_torque_ = 0.0;  // only for the picture
};

}  // namespace troupe::envs
