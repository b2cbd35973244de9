#include "envs/classic/acrobot.hpp"

#include <algorithm>
#include <cmath>

#include "envs/classic/libm_square.hpp"
#include "envs/draw.hpp"

namespace troupe::envs {

namespace {
// The time derivative of (theta1, theta2, dtheta1, dtheta2) under a constant
// joint torque, from the "book" equations of motion (Sutton & Barto), which
// keep the dtheta1^2 * sin(theta2) term in the second joint's acceleration.
acrobot::state_type derivative(const acrobot::state_type& s, double torque) {
  using a = acrobot;
  constexpr double m1 = a::link_mass_1, m2 = a::link_mass_2;
  constexpr double l1 = a::link_length_1;
  constexpr double lc1 = a::link_com_pos_1, lc2 = a::link_com_pos_2;
  constexpr double i1 = a::link_moi, i2 = a::link_moi;
  constexpr double g = a::gravity;
  const auto [theta1, theta2, dtheta1, dtheta2] = s;
  const double sin2 = std::sin(theta2);
  const double cos2 = std::cos(theta2);
  const double d1 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * cos2) + i1 + i2;
  const double d2 = m2 * (lc2 * lc2 + l1 * lc2 * cos2) + i2;
  const double phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - a::pi / 2.0);
  const double phi1 = -m2 * l1 * lc2 * libm_square(dtheta2) * sin2 -
                      2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin2 +
                      (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - a::pi / 2) + phi2;
  const double ddtheta2 =
      (torque + d2 / d1 * phi1 - m2 * l1 * lc2 * libm_square(dtheta1) * sin2 - phi2) /
      (m2 * lc2 * lc2 + i2 - libm_square(d2) / d1);
  const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  return {dtheta1, dtheta2, ddtheta1, ddtheta2};
}

// y + h * k, element-wise.
acrobot::state_type shifted(const acrobot::state_type& y, double h, const acrobot::state_type& k) {
  acrobot::state_type out;
  for (int i = 0; i < 4; ++i) out[i] = y[i] + h * k[i];
  return out;
}

// Adds or subtracts the interval's width until x lies in [low, high].
double wrap(double x, double low, double high) {
  const double width = high - low;
  while (x > high) x -= width;
  while (x < low) x += width;
  return x;
}

double clip(double x, double low, double high) { return std::min(std::max(x, low), high); }
}  // namespace

acrobot::acrobot()
    : episode_env({"Acrobot-v1",
                   space::box_space({6}, {-1, -1, -1, -1, -max_vel_1, -max_vel_2},
                                    {1, 1, 1, 1, max_vel_1, max_vel_2}),
                   space::discrete_space(3), max_steps, {"-1", "0", "+1"}}) {}

acrobot::state_type acrobot::initial_state(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-reset_bound, reset_bound);
  state_type s;
  // Gymnasium holds the initial state as float32.
  for (double& v : s) v = static_cast<float>(uniform(rng));
  return s;
}

acrobot::state_type acrobot::transition(const state_type& s, int action) {
  const double torque = available_torque[action];
  // One classical Runge-Kutta step over [0, dt].
  const double half = dt / 2.0;
  const state_type k1 = derivative(s, torque);
  const state_type k2 = derivative(shifted(s, half, k1), torque);
  const state_type k3 = derivative(shifted(s, half, k2), torque);
  const state_type k4 = derivative(shifted(s, dt, k3), torque);
  state_type next;
  for (int i = 0; i < 4; ++i)
    next[i] = s[i] + dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  next[0] = wrap(next[0], -pi, pi);
  next[1] = wrap(next[1], -pi, pi);
  next[2] = clip(next[2], -max_vel_1, max_vel_1);
  next[3] = clip(next[3], -max_vel_2, max_vel_2);
  return next;
}

bool acrobot::is_terminal(const state_type& s) {
  return -std::cos(s[0]) - std::cos(s[1] + s[0]) > 1.0;
}

step_result acrobot::advance(const float* action) {
  state_ = transition(state_, static_cast<int>(action[0]));
  const bool terminated = is_terminal(state_);
  return {terminated ? 0.0 : -1.0, terminated, false};
}

void acrobot::write_observation(float* observation) const {
  const auto [theta1, theta2, dtheta1, dtheta2] = state_;
  observation[0] = static_cast<float>(std::cos(theta1));
  observation[1] = static_cast<float>(std::sin(theta1));
  observation[2] = static_cast<float>(std::cos(theta2));
  observation[3] = static_cast<float>(std::sin(theta2));
  observation[4] = static_cast<float>(dtheta1);
  observation[5] = static_cast<float>(dtheta2);
}

void acrobot::render(rgb_frame& frame) const {
  // Gymnasium's picture: 500x500, the world spans +-2.2 around the pivot,
  // cyan links with yellow joints and a black line at the goal height.
  constexpr int size = 500;
  constexpr double bound = link_length_1 + link_length_2 + 0.2;
  constexpr double scale = size / (2 * bound);
  constexpr draw::color white{255, 255, 255}, black{0, 0, 0};
  constexpr draw::color link_color{0, 204, 204}, joint_color{204, 204, 0};
  frame.resize(size, size);
  draw::clear(frame, white);
  // World (x right, y up, pivot at the origin) to pixels.
  const auto to_pixel = [&](double x, double y) {
    return draw::point{size / 2.0 + x * scale, size / 2.0 - y * scale};
  };
  const draw::point goal_left = to_pixel(-bound, link_length_1);
  const draw::point goal_right = to_pixel(bound, link_length_1);
  draw::thick_line(frame, goal_left, goal_right, 2.0, black);

  const double theta1 = state_[0], theta12 = state_[0] + state_[1];
  const draw::point pivot = to_pixel(0.0, 0.0);
  const double elbow_x = link_length_1 * std::sin(theta1);
  const double elbow_y = -link_length_1 * std::cos(theta1);
  const draw::point elbow = to_pixel(elbow_x, elbow_y);
  const draw::point tip = to_pixel(elbow_x + link_length_2 * std::sin(theta12),
                                   elbow_y - link_length_2 * std::cos(theta12));
  const double link_width = 0.2 * scale;
  draw::thick_line(frame, pivot, elbow, link_width, link_color);
  draw::fill_circle(frame, pivot, link_width / 2, joint_color);
  draw::thick_line(frame, elbow, tip, link_width, link_color);
  draw::fill_circle(frame, elbow, link_width / 2, joint_color);
}

}  // namespace troupe::envs
