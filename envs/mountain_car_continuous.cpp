#include "envs/mountain_car_continuous.hpp"

#include <algorithm>
#include <cmath>

#include "envs/libm_square.hpp"
#include "envs/mountain_car.hpp"

namespace troupe::envs {

mountain_car_continuous::mountain_car_continuous() {
  spec_.id = "MountainCarContinuous-v0";
  spec_.observation =
      space::box_space({2}, {min_position, -max_speed}, {max_position, max_speed});
  spec_.action = space::box_space({1}, {min_action}, {max_action});
  spec_.max_episode_steps = max_steps;
}

void mountain_car_continuous::reset(std::uint64_t seed, float* observation) {
  rng_.seed(seed);
  std::uniform_real_distribution<double> uniform(reset_low, reset_high);
  state_ = {uniform(rng_), 0.0};  // float64 until the first step, as in Gymnasium
  steps_ = 0;
  write_observation(observation);
}

mountain_car_continuous::transition_result mountain_car_continuous::transition(
    const state_type& s, double force) {
  auto [position, velocity] = s;
  const double push = std::clamp(force, min_action, max_action);
  velocity += push * power - gravity * std::cos(3 * position);
  velocity = std::clamp(velocity, -max_speed, max_speed);
  position += velocity;
  position = std::clamp(position, min_position, max_position);
  if (position == min_position && velocity < 0) velocity = 0.0;
  const bool terminated = position >= goal_position && velocity >= goal_velocity;
  return {{static_cast<float>(position), static_cast<float>(velocity)}, terminated};
}

double mountain_car_continuous::reward(double force, bool terminated) {
  return (terminated ? goal_reward : 0.0) - libm_square(force) * action_cost;
}

step_result mountain_car_continuous::step(const float* action, float* observation) {
  const double force = action[0];
  const transition_result next = transition(state_, force);
  state_ = next.state;
  ++steps_;
  step_result result;
  result.terminated = next.terminated;
  result.reward = reward(force, next.terminated);
  result.truncated = !result.terminated && steps_ >= max_steps;
  write_observation(observation);
  return result;
}

void mountain_car_continuous::write_observation(float* observation) const {
  for (int i = 0; i < 2; ++i) observation[i] = static_cast<float>(state_[i]);
}

void mountain_car_continuous::render(rgb_frame& frame) const {
  mountain_car::draw_scene(frame, state_[0], goal_position);
}

}  // namespace troupe::envs
