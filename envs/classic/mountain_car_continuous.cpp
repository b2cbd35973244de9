#include "envs/classic/mountain_car_continuous.hpp"

#include <algorithm>
#include <cmath>

#include "envs/classic/libm_square.hpp"
#include "envs/classic/mountain_car.hpp"

namespace troupe::envs {

mountain_car_continuous::mountain_car_continuous()
    : episode_env({"MountainCarContinuous-v0",
                   space::box_space({2}, {min_position, -max_speed}, {max_position, max_speed}),
                   space::box_space({1}, {min_action}, {max_action}), max_steps}) {}

mountain_car_continuous::state_type mountain_car_continuous::initial_state(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(reset_low, reset_high);
  return {uniform(rng), 0.0};  // float64 until the first step, as in Gymnasium
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

step_result mountain_car_continuous::advance(const float* action) {
  const double force = action[0];
  const transition_result next = transition(state_, force);
  state_ = next.state;
  return {reward(force, next.terminated), next.terminated, false};
}

void mountain_car_continuous::write_observation(float* observation) const {
  for (int i = 0; i < 2; ++i) observation[i] = static_cast<float>(state_[i]);
}

void mountain_car_continuous::render(rgb_frame& frame) const {
  mountain_car::draw_scene(frame, state_[0], goal_position);
}

}  // namespace troupe::envs
