#pragma once
// CartPole-v1 with Gymnasium 1.4.0's dynamics, step for step (explicit Euler).
#include <array>
#include <random>

#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::envs {

class cartpole final : public env, public renderable {
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
  using state_type = std::array<double, 4>;

  cartpole();
  const env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t seed, float* observation) override;
  step_result step(const float* action, float* observation) override;
  void render(rgb_frame& frame) const override;

  // The raw dynamics, without the episode limit: used by the golden tests.
  static state_type transition(const state_type& s, int action);
  static bool is_terminal(const state_type& s);

  const state_type& state() const { return state_; }
  void set_state(const state_type& s) { state_ = s; steps_ = 0; }

 private:
  void write_observation(float* observation) const;

  env_spec spec_;
  state_type state_{};
  int steps_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace troupe::envs
