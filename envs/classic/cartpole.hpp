#pragma once
// CartPole-v1 with Gymnasium 1.4.0's dynamics, step for step (explicit Euler).
#include <array>

#include "envs/episode_env.hpp"

namespace troupe::envs {

class cartpole final : public episode_env<std::array<double, 4>> {
 public:
  static constexpr double gravity = 9.8;
  static constexpr double masscart = 1.0;
  static constexpr double masspole = 0.1;
  static constexpr double total_mass = masscart + masspole;
  static constexpr double length = 0.5;  // half the pole's length
  static constexpr double polemass_length = masspole * length;
  static constexpr double force_mag = 10.0;
  static constexpr double tau = 0.02;
  static constexpr double theta_threshold = 12.0 * 2.0 * 3.14159265358979323846 / 360.0;
  static constexpr double x_threshold = 2.4;
  static constexpr double reset_bound = 0.05;
  static constexpr int max_steps = 500;

  // State: x, x_dot, theta, theta_dot.
  cartpole();
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  static state_type transition(const state_type& s, int action);
  static bool is_terminal(const state_type& s);

 private:
  state_type initial_state(std::mt19937_64& rng) override;
  step_result advance(const float* action) override;
  void write_observation(float* observation) const override;
};

}  // namespace troupe::envs
