#include "envs/cartpole.hpp"

#include <cmath>

namespace troupe::envs {

cartpole::cartpole() {
  const double inf = std::numeric_limits<double>::infinity();
  const double obs_high[4] = {x_threshold * 2, inf, theta_threshold * 2, inf};
  spec_.id = "CartPole-v1";
  spec_.observation = space::box_space({4}, {-obs_high[0], -inf, -obs_high[2], -inf},
                                       {obs_high[0], inf, obs_high[2], inf});
  spec_.action = space::discrete_space(2);
  spec_.max_episode_steps = max_steps;
}

void cartpole::reset(std::uint64_t seed, float* observation) {
  rng_.seed(seed);
  std::uniform_real_distribution<double> uniform(-reset_bound, reset_bound);
  for (double& v : state_) v = uniform(rng_);
  steps_ = 0;
  write_observation(observation);
}

cartpole::state_type cartpole::transition(const state_type& s, int action) {
  const auto [x, x_dot, theta, theta_dot] = s;
  const double force = action == 1 ? force_mag : -force_mag;
  const double costheta = std::cos(theta);
  const double sintheta = std::sin(theta);
  const double temp =
      (force + polemass_length * theta_dot * theta_dot * sintheta) / total_mass;
  const double thetaacc =
      (gravity * sintheta - costheta * temp) /
      (length * (4.0 / 3.0 - masspole * costheta * costheta / total_mass));
  const double xacc = temp - polemass_length * thetaacc * costheta / total_mass;
  return {x + tau * x_dot, x_dot + tau * xacc, theta + tau * theta_dot,
          theta_dot + tau * thetaacc};
}

bool cartpole::is_terminal(const state_type& s) {
  return s[0] < -x_threshold || s[0] > x_threshold || s[2] < -theta_threshold ||
         s[2] > theta_threshold;
}

step_result cartpole::step(const float* action, float* observation) {
  state_ = transition(state_, static_cast<int>(action[0]));
  ++steps_;
  step_result result;
  result.reward = 1.0;
  result.terminated = is_terminal(state_);
  result.truncated = !result.terminated && steps_ >= max_steps;
  write_observation(observation);
  return result;
}

void cartpole::write_observation(float* observation) const {
  for (int i = 0; i < 4; ++i) observation[i] = static_cast<float>(state_[i]);
}

}  // namespace troupe::envs
