#include "games/builtin/duel_pong.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "envs/draw.hpp"

namespace troupe::games {

using envs::space;

duel_pong::duel_pong()
    : spec_{id,
            space::box_space({6}, {0, 0, -0.1, 0, -1, -1}, {1, 1, 1.1, 1, 1, 1}),
            space::discrete_space(3),
            0} {
  spec_.action_labels = {"stay", "up", "down"};
  spec_.pixel_art = true;
  spec_.max_episode_steps = step_limit;
}

void duel_pong::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  s_ = {};
  s_.y = 0.3 + 0.4 * unit(rng);
  s_.vx = unit(rng) < 0.5 ? -serve_speed : serve_speed;
  s_.vy = (unit(rng) - 0.5) * 0.03;
}

void duel_pong::observe(int agent, float* o) const {
  // Agent 1 sees the court mirrored: it guards x = 0 too.
  const bool mirrored = agent == 1;
  o[0] = float(s_.paddle[agent]);
  o[1] = float(s_.paddle[1 - agent]);
  o[2] = float(mirrored ? 1.0 - s_.x : s_.x);
  o[3] = float(s_.y);
  o[4] = float((mirrored ? -s_.vx : s_.vx) / max_speed_x);
  o[5] = float(s_.vy / max_speed_y);
}

joint_result duel_pong::step(const float* actions) {
  for (int a = 0; a < 2; ++a) {
    const float act = actions[a];
    if (!(act == 0 || act == 1 || act == 2))
      throw std::invalid_argument(std::string(id) + ": action " + std::to_string(act) + " of " + agent_name(a) +
                                  " is not 0 (stay), 1 (up) or 2 (down)");
  }
  for (int a = 0; a < 2; ++a) {
    const double move = actions[a] == 1 ? -paddle_speed : actions[a] == 2 ? paddle_speed : 0.0;
    s_.paddle[a] = std::clamp(s_.paddle[a] + move, paddle_half, 1.0 - paddle_half);
  }
  s_.x += s_.vx;
  s_.y += s_.vy;
  if (s_.y < 0) s_.y = -s_.y, s_.vy = -s_.vy;
  if (s_.y > 1) s_.y = 2.0 - s_.y, s_.vy = -s_.vy;
  ++s_.steps;
  joint_result r;
  r.rewards = {0.0, 0.0};
  // The wall the ball reached, if any: 0 at x = 0, 1 at x = 1.
  const int wall = s_.x <= 0 ? 0 : s_.x >= 1 ? 1 : -1;
  if (wall >= 0) {
    const double offset = s_.y - s_.paddle[wall];
    if (std::abs(offset) <= paddle_half) {
      // Returned: back off the paddle, faster, deflected by where it hit.
      s_.x = wall == 0 ? -s_.x : 2.0 - s_.x;
      const double speed = std::min(std::abs(s_.vx) * 1.05, max_speed_x);
      s_.vx = wall == 0 ? speed : -speed;
      s_.vy = std::clamp(s_.vy + 0.015 * offset / paddle_half, -max_speed_y, max_speed_y);
    } else {
      r.rewards[size_t(wall)] = -1.0;
      r.rewards[size_t(1 - wall)] = 1.0;
      r.terminated = true;
      return r;
    }
  }
  r.truncated = s_.steps >= step_limit;
  return r;
}

void duel_pong::render(rgb_frame& frame) const {
  constexpr int size = 120;
  constexpr envs::draw::color court{0, 0, 0}, left{90, 200, 255}, right{255, 140, 60}, ball{255, 255, 255};
  frame.resize(size, size);
  envs::draw::clear(frame, court);
  const double h = paddle_half * size;
  envs::draw::fill_rect(frame, 0, s_.paddle[0] * size - h, 3, s_.paddle[0] * size + h, left);
  envs::draw::fill_rect(frame, size - 3, s_.paddle[1] * size - h, size, s_.paddle[1] * size + h, right);
  const double bx = std::clamp(s_.x, 0.0, 1.0) * size, by = s_.y * size;
  envs::draw::fill_rect(frame, bx - 2, by - 2, bx + 2, by + 2, ball);
}

}  // namespace troupe::games
