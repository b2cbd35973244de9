#include "envs/classic/mountain_car.hpp"

#include <algorithm>
#include <cmath>

#include "envs/draw.hpp"

namespace troupe::envs {

mountain_car::mountain_car()
    : episode_env({"MountainCar-v0",
                   space::box_space({2}, {min_position, -max_speed}, {max_position, max_speed}),
                   space::discrete_space(3), max_steps, {"left", "none", "right"}}) {}

mountain_car::state_type mountain_car::initial_state(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(reset_low, reset_high);
  return {uniform(rng), 0.0};
}

mountain_car::state_type mountain_car::transition(const state_type& s, int action) {
  auto [position, velocity] = s;
  velocity += (action - 1) * force + std::cos(3 * position) * (-gravity);
  velocity = std::clamp(velocity, -max_speed, max_speed);
  position += velocity;
  position = std::clamp(position, min_position, max_position);
  if (position == min_position && velocity < 0) velocity = 0.0;
  return {position, velocity};
}

bool mountain_car::is_terminal(const state_type& s) {
  return s[0] >= goal_position && s[1] >= goal_velocity;
}

step_result mountain_car::advance(const float* action) {
  state_ = transition(state_, static_cast<int>(action[0]));
  return {-1.0, is_terminal(state_), false};
}

void mountain_car::write_observation(float* observation) const {
  for (int i = 0; i < 2; ++i) observation[i] = static_cast<float>(state_[i]);
}

void mountain_car::render(rgb_frame& frame) const {
  draw_scene(frame, state_[0], goal_position);
}

void mountain_car::draw_scene(rgb_frame& frame, double position, double goal) {
  // Gymnasium's picture: 600x400 pixels for the track [-1.2, 0.6], a black
  // hill, a black car on grey wheels, a yellow flag on a black pole.
  constexpr int width = 600, height = 400;
  constexpr double scale = width / (max_position - min_position);
  constexpr double clearance = 10, car_width = 40, car_height = 20;
  constexpr draw::color white{255, 255, 255}, black{0, 0, 0};
  constexpr draw::color wheel_color{128, 128, 128}, flag_color{204, 204, 0};
  const auto hill = [](double x) { return std::sin(3 * x) * 0.45 + 0.55; };
  // Scene coordinates (pixels, y up from the bottom edge) to frame pixels.
  const auto to_pixel = [&](double x, double y) { return draw::point{x, height - y}; };
  frame.resize(width, height);
  draw::clear(frame, white);

  std::vector<draw::point> curve;
  constexpr int samples = 100;
  for (int i = 0; i < samples; ++i) {
    const double x = min_position + (max_position - min_position) * i / (samples - 1);
    curve.push_back(to_pixel((x - min_position) * scale, hill(x) * scale));
  }
  draw::polyline(frame, curve, 2.0, black);

  const double flag_x = (goal - min_position) * scale;
  const double flag_bottom = hill(goal) * scale, flag_top = flag_bottom + 50;
  draw::thick_line(frame, to_pixel(flag_x, flag_bottom), to_pixel(flag_x, flag_top), 2.0, black);
  draw::fill_polygon(frame,
                     {to_pixel(flag_x, flag_top), to_pixel(flag_x, flag_top - 10),
                      to_pixel(flag_x + 25, flag_top - 5)},
                     flag_color);

  // The car body and wheels, rotated by the slope angle around the contact point.
  const double angle = std::cos(3 * position);
  const double base_x = (position - min_position) * scale;
  const double base_y = clearance + hill(position) * scale;
  const auto placed = [&](double x, double y) {
    return to_pixel(base_x + x * std::cos(angle) - y * std::sin(angle),
                    base_y + x * std::sin(angle) + y * std::cos(angle));
  };
  const double half = car_width / 2;
  draw::fill_polygon(frame,
                     {placed(-half, 0), placed(-half, car_height), placed(half, car_height),
                      placed(half, 0)},
                     black);
  draw::fill_circle(frame, placed(car_width / 4, 0), car_height / 2.5, wheel_color);
  draw::fill_circle(frame, placed(-car_width / 4, 0), car_height / 2.5, wheel_color);
}

}  // namespace troupe::envs
