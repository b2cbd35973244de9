#include "envs/classic/pendulum.hpp"

#include <algorithm>
#include <cmath>

#include "envs/classic/libm_square.hpp"
#include "envs/draw.hpp"

namespace troupe::envs {

pendulum::pendulum()
    : episode_env({"Pendulum-v1", space::box_space({3}, {-1, -1, -max_speed}, {1, 1, max_speed}),
                   space::box_space({1}, {-max_torque}, {max_torque}), max_steps}) {}

pendulum::state_type pendulum::initial_state(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> theta(-reset_theta_bound, reset_theta_bound);
  std::uniform_real_distribution<double> speed(-reset_speed_bound, reset_speed_bound);
  last_torque_ = 0.0;
  const double first = theta(rng);  // drawn in this order
  return {first, speed(rng)};
}

double pendulum::angle_normalize(double theta) {
  constexpr double two_pi = 2 * pi;
  double wrapped = std::fmod(theta + pi, two_pi);
  if (wrapped < 0) wrapped += two_pi;
  if (wrapped == 0) wrapped = 0.0;  // numpy gives +0 for a zero remainder
  return wrapped - pi;
}

pendulum::state_type pendulum::transition(const state_type& s, double torque) {
  const auto [theta, theta_dot] = s;
  const double u = std::clamp(torque, -max_torque, max_torque);
  const double new_theta_dot = std::clamp(
      theta_dot + (3 * gravity / (2 * length) * std::sin(theta) +
                   3.0 / (mass * length * length) * u) * dt,
      -max_speed, max_speed);
  return {theta + new_theta_dot * dt, new_theta_dot};
}

double pendulum::reward(const state_type& s, double torque) {
  const double u = std::clamp(torque, -max_torque, max_torque);
  const double angle = angle_normalize(s[0]);
  const double cost = libm_square(angle) + 0.1 * libm_square(s[1]) + 0.001 * libm_square(u);
  return -cost;
}

step_result pendulum::advance(const float* action) {
  const double torque = action[0];
  const double r = reward(state_, torque);
  state_ = transition(state_, torque);
  last_torque_ = std::clamp(torque, -max_torque, max_torque);
  return {r, false, false};  // only the time limit ends an episode
}

void pendulum::write_observation(float* observation) const {
  observation[0] = static_cast<float>(std::cos(state_[0]));
  observation[1] = static_cast<float>(std::sin(state_[0]));
  observation[2] = static_cast<float>(state_[1]);
}

void pendulum::render(rgb_frame& frame) const {
  // Gymnasium's picture: 500x500 for +-2.2 around the pivot, a red rod with
  // round ends on a black axle; here a black arc shows the last torque.
  constexpr int size = 500;
  constexpr double scale = size / (2 * 2.2);
  constexpr draw::color white{255, 255, 255}, black{0, 0, 0}, rod_color{204, 77, 77};
  frame.resize(size, size);
  draw::clear(frame, white);
  const draw::point pivot{size / 2.0, size / 2.0};
  const double rod_length = length * scale, rod_width = 0.2 * scale;
  // theta = 0 points up; positive theta turns counter-clockwise on screen.
  const draw::point end{pivot.x - rod_length * std::sin(state_[0]),
                        pivot.y - rod_length * std::cos(state_[0])};
  draw::thick_line(frame, pivot, end, rod_width, rod_color);
  draw::fill_circle(frame, pivot, rod_width / 2, rod_color);
  draw::fill_circle(frame, end, rod_width / 2, rod_color);

  if (last_torque_ != 0.0) {
    // An arc around the pivot, as long as the torque is strong.
    const double radius = 0.35 * scale;
    const double sweep = last_torque_ / max_torque * pi * 0.75;
    std::vector<draw::point> arc;
    constexpr int segments = 24;
    for (int i = 0; i <= segments; ++i) {
      const double a = pi / 2 + sweep * i / segments;  // from straight up
      arc.push_back({pivot.x + radius * std::cos(a), pivot.y - radius * std::sin(a)});
    }
    draw::polyline(frame, arc, 3.0, black);
    draw::fill_circle(frame, arc.back(), 5.0, black);
  }
  draw::fill_circle(frame, pivot, 0.05 * scale, black);
}

}  // namespace troupe::envs
