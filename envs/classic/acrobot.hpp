#pragma once
// Acrobot-v1 with Gymnasium 1.4.0's dynamics, step for step: one classical
// RK4 step of the "book" equations of motion, then both angles wrapped into
// [-pi, pi] and the angular velocities clipped.
#include <array>

#include "envs/episode_env.hpp"

namespace troupe::envs {

class acrobot final : public episode_env<std::array<double, 4>> {
 public:
  static constexpr double pi = 3.14159265358979323846;
  static constexpr double dt = 0.2;
  static constexpr double link_length_1 = 1.0;
  static constexpr double link_length_2 = 1.0;
  static constexpr double link_mass_1 = 1.0;
  static constexpr double link_mass_2 = 1.0;
  static constexpr double link_com_pos_1 = 0.5;  // centre of mass, from the joint
  static constexpr double link_com_pos_2 = 0.5;
  static constexpr double link_moi = 1.0;        // moment of inertia of either link
  static constexpr double gravity = 9.8;
  static constexpr double max_vel_1 = 4 * pi;
  static constexpr double max_vel_2 = 9 * pi;
  static constexpr std::array<double, 3> available_torque = {-1.0, 0.0, 1.0};
  static constexpr double reset_bound = 0.1;
  static constexpr int max_steps = 500;

  // State: theta1 (0 = hanging down), theta2 (relative to link 1), dtheta1, dtheta2.
  acrobot();
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  static state_type transition(const state_type& s, int action);
  // The free end is more than one link length above the pivot.
  static bool is_terminal(const state_type& s);

 private:
  state_type initial_state(std::mt19937_64& rng) override;
  step_result advance(const float* action) override;
  void write_observation(float* observation) const override;
};

}  // namespace troupe::envs
