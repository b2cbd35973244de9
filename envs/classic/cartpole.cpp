#include "envs/classic/cartpole.hpp"

#include <cmath>
#include <limits>

#include "envs/draw.hpp"

namespace troupe::envs {

namespace {
env_spec cartpole_spec() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double x_high = cartpole::x_threshold * 2, theta_high = cartpole::theta_threshold * 2;
  return {"CartPole-v1",
          space::box_space({4}, {-x_high, -inf, -theta_high, -inf}, {x_high, inf, theta_high, inf}),
          space::discrete_space(2), cartpole::max_steps, {"left", "right"}};
}
}  // namespace

cartpole::cartpole() : episode_env(cartpole_spec()) {}

cartpole::state_type cartpole::initial_state(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-reset_bound, reset_bound);
  state_type s;
  for (double& v : s) v = uniform(rng);
  return s;
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

step_result cartpole::advance(const float* action) {
  state_ = transition(state_, static_cast<int>(action[0]));
  return {1.0, is_terminal(state_), false};
}

void cartpole::write_observation(float* observation) const {
  for (int i = 0; i < 4; ++i) observation[i] = static_cast<float>(state_[i]);
}

void cartpole::render(rgb_frame& frame) const {
  // Gymnasium's picture: 600x400 for the track [-4.8, 4.8] of twice the
  // threshold, a black track line and cart, a tan pole on a blue-grey axle.
  constexpr int width = 600, height = 400;
  constexpr double scale = width / (x_threshold * 2);
  constexpr double pole_width = 10.0, pole_length = scale * (2 * length);
  constexpr double cart_width = 50.0, cart_height = 30.0, axle_offset = cart_height / 4;
  constexpr double track_y = height - 100.0;  // pixels, y down
  constexpr draw::color white{255, 255, 255}, black{0, 0, 0};
  constexpr draw::color pole_color{202, 152, 101}, axle_color{129, 132, 203};
  frame.resize(width, height);
  draw::clear(frame, white);
  draw::thick_line(frame, {0.0, track_y}, {double(width), track_y}, 1.0, black);

  const double cart_x = state_[0] * scale + width / 2.0;
  draw::fill_rect(frame, cart_x - cart_width / 2, track_y - cart_height / 2,
                  cart_x + cart_width / 2, track_y + cart_height / 2, black);
  // The pole leans right for a positive angle; it starts just below the axle.
  const draw::point axle{cart_x, track_y - axle_offset};
  const double dx = std::sin(state_[2]), dy = -std::cos(state_[2]);
  const double tail = pole_width / 2, head = pole_length - pole_width / 2;
  draw::thick_line(frame, {axle.x - dx * tail, axle.y - dy * tail},
                   {axle.x + dx * head, axle.y + dy * head}, pole_width, pole_color);
  draw::fill_circle(frame, axle, pole_width / 2, axle_color);
}

}  // namespace troupe::envs
