#include <doctest/doctest.h>

#include <array>
#include <set>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/classic/acrobot.hpp"
#include "envs/classic/cartpole.hpp"
#include "envs/classic/mountain_car.hpp"
#include "envs/classic/pendulum.hpp"
#include "envs/draw.hpp"
#include "envs/render.hpp"

using troupe::envs::rgb_frame;

namespace {
size_t distinct_colours(const rgb_frame& frame) {
  std::set<std::array<std::uint8_t, 3>> colours;
  for (size_t i = 0; i + 2 < frame.pixels.size(); i += 3)
    colours.insert({frame.pixels[i], frame.pixels[i + 1], frame.pixels[i + 2]});
  return colours.size();
}

// The colour of pixel (x, y).
std::array<std::uint8_t, 3> at(const rgb_frame& frame, int x, int y) {
  const size_t i = (static_cast<size_t>(y) * frame.width + x) * 3;
  return {frame.pixels[i], frame.pixels[i + 1], frame.pixels[i + 2]};
}
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("every renderable registered environment draws a non-blank picture") {
  int renderable_count = 0;
  for (const auto& entry : troupe::catalog::registered_envs()) {
    CAPTURE(entry.id);
    troupe::envs::env_config config;
    config.id = entry.id;
    const auto env = entry.make(troupe::catalog::with_playable_seat(config));
    const auto* drawable = dynamic_cast<const troupe::envs::renderable*>(env.get());
    if (drawable == nullptr) continue;
    ++renderable_count;
    std::vector<float> obs(env->spec().observation.flat_size());
    env->reset(5, obs.data());
    rgb_frame frame;
    drawable->render(frame);
    REQUIRE(frame.width > 0);
    REQUIRE(frame.height > 0);
    REQUIRE(frame.pixels.size() == static_cast<size_t>(frame.width) * frame.height * 3);
    CHECK(distinct_colours(frame) > 1);
  }
  CHECK(renderable_count >= 5);  // the five classic-control environments at least
}

TEST_CASE("the classic-control environments are all renderable") {
  for (const char* id : {"CartPole-v1", "Acrobot-v1", "MountainCar-v0", "Pendulum-v1",
                         "MountainCarContinuous-v0"}) {
    CAPTURE(id);
    const auto env = troupe::catalog::make_env(id);
    CHECK(dynamic_cast<const troupe::envs::renderable*>(env.get()) != nullptr);
  }
}

TEST_CASE("the cart-pole picture follows the pole angle and the cart") {
  troupe::envs::cartpole env;
  rgb_frame upright, leaning, moved;
  env.set_state({0.0, 0.0, 0.0, 0.0});
  env.render(upright);
  env.set_state({0.0, 0.0, 0.2, 0.0});
  env.render(leaning);
  env.set_state({1.0, 0.0, 0.0, 0.0});
  env.render(moved);
  CHECK(upright.width == 600);
  CHECK(upright.height == 400);
  CHECK(upright.pixels != leaning.pixels);
  CHECK(upright.pixels != moved.pixels);
  // White background, black cart at the centre, tan pole above it.
  CHECK(at(upright, 5, 5) == std::array<std::uint8_t, 3>{255, 255, 255});
  CHECK(at(upright, 300, 300) == std::array<std::uint8_t, 3>{0, 0, 0});
  CHECK(at(upright, 300, 250) == std::array<std::uint8_t, 3>{202, 152, 101});
  CHECK(at(leaning, 300, 200) == std::array<std::uint8_t, 3>{255, 255, 255});
}

TEST_CASE("the pendulum, acrobot and mountain-car pictures follow their state") {
  rgb_frame a, b;
  troupe::envs::pendulum pendulum;
  pendulum.set_state({0.0, 0.0});
  pendulum.render(a);
  pendulum.set_state({2.0, 0.0});
  pendulum.render(b);
  CHECK(a.pixels != b.pixels);

  troupe::envs::acrobot acrobot;
  acrobot.set_state({0.0, 0.0, 0.0, 0.0});
  acrobot.render(a);
  acrobot.set_state({1.0, 0.5, 0.0, 0.0});
  acrobot.render(b);
  CHECK(a.pixels != b.pixels);

  troupe::envs::mountain_car car;
  car.set_state({-0.5, 0.0});
  car.render(a);
  car.set_state({0.3, 0.0});
  car.render(b);
  CHECK(a.pixels != b.pixels);
}

TEST_CASE("the drawing helpers cover the pixels whose centres lie inside") {
  namespace draw = troupe::envs::draw;
  rgb_frame frame;
  frame.resize(20, 10);
  draw::clear(frame, {255, 255, 255});
  draw::fill_rect(frame, 2, 3, 5, 6, {1, 2, 3});
  CHECK(at(frame, 2, 3) == std::array<std::uint8_t, 3>{1, 2, 3});
  CHECK(at(frame, 4, 5) == std::array<std::uint8_t, 3>{1, 2, 3});
  CHECK(at(frame, 5, 5) == std::array<std::uint8_t, 3>{255, 255, 255});
  CHECK(at(frame, 1, 3) == std::array<std::uint8_t, 3>{255, 255, 255});
  draw::fill_circle(frame, {15, 5}, 3, {9, 9, 9});
  CHECK(at(frame, 15, 5) == std::array<std::uint8_t, 3>{9, 9, 9});
  CHECK(at(frame, 19, 9) == std::array<std::uint8_t, 3>{255, 255, 255});
  // Shapes partly off the frame are clipped, not written out of bounds.
  draw::thick_line(frame, {-10, -10}, {30, 30}, 2, {7, 7, 7});
  CHECK(at(frame, 8, 8) == std::array<std::uint8_t, 3>{7, 7, 7});
  CHECK(frame.pixels.size() == 20u * 10 * 3);
}
}
