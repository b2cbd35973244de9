#include "games/builtin/spread_game.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::games {

spread_game::spread_game() : spec_(grid::game_spec(id, observation_size, step_limit)) {}

void spread_game::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  s_ = {};
  grid::draw_distinct(rng, side, s_.landmark.data(), landmarks);
  grid::draw_distinct(rng, side, s_.agent.data(), agents);
}

void spread_game::observe(int agent, float* o) const {
  const cell me = s_.agent.at(size_t(agent));
  *o++ = float(me.x) / view_scale;
  *o++ = float(me.y) / view_scale;
  for (const cell& l : s_.landmark) {
    *o++ = float(l.x - me.x) / view_scale;
    *o++ = float(l.y - me.y) / view_scale;
  }
  for (int j = 0; j < agents; ++j) {
    if (j == agent) continue;
    *o++ = float(s_.agent[size_t(j)].x - me.x) / view_scale;
    *o++ = float(s_.agent[size_t(j)].y - me.y) / view_scale;
  }
  for (int j = 0; j < agents; ++j) *o++ = j == agent ? 1.f : 0.f;
}

joint_result spread_game::step(const float* actions) {
  if (s_.steps >= step_limit) throw std::logic_error(std::string(id) + ": stepped after its end");
  int moves[agents];
  for (int a = 0; a < agents; ++a) moves[a] = grid::move_of(actions[a], id, agent_name(a));
  for (int a = 0; a < agents; ++a) s_.agent[size_t(a)] = grid::moved(s_.agent[size_t(a)], moves[a], side);
  int uncovered = 0;
  for (const cell& l : s_.landmark) {
    int nearest = 2 * side;
    for (const cell& a : s_.agent) nearest = std::min(nearest, grid::distance(a, l));
    uncovered += nearest;
  }
  joint_result r;
  r.rewards.assign(agents, -double(uncovered) / (3.0 * 2 * (side - 1)));
  for (int a = 0; a < agents; ++a)
    for (int b = 0; b < agents; ++b)
      if (a != b && grid::same(s_.agent[size_t(a)], s_.agent[size_t(b)])) r.rewards[size_t(a)] -= collision_penalty;
  r.truncated = ++s_.steps >= step_limit;
  return r;
}

void spread_game::render(rgb_frame& frame) const {
  constexpr int cell_px = 24;
  constexpr envs::draw::color mark{110, 110, 120}, covered{80, 200, 110};
  constexpr envs::draw::color colors[agents] = {{90, 200, 255}, {255, 140, 60}, {230, 90, 200}};
  grid::draw_floor(frame, side, cell_px);
  for (const cell& l : s_.landmark) {
    const bool taken = std::any_of(s_.agent.begin(), s_.agent.end(), [&](const cell& a) { return grid::same(a, l); });
    envs::draw::fill_rect(frame, l.x * cell_px + 3, l.y * cell_px + 3, (l.x + 1) * cell_px - 2, (l.y + 1) * cell_px - 2,
                    taken ? covered : mark);
  }
  for (int a = 0; a < agents; ++a) {
    const cell c = s_.agent[size_t(a)];
    envs::draw::fill_circle(frame, {(c.x + 0.5) * cell_px, (c.y + 0.5) * cell_px}, cell_px * 0.3, colors[a]);
  }
}

}  // namespace troupe::games
