#include "envs/games/spread_game.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::envs::games {

namespace {
constexpr float scale = float(spread_game::grid - 1);

int distance(spread_game::cell a, spread_game::cell b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

// `count` distinct cells of the grid, drawn from `rng`.
template <size_t N>
void draw_cells(std::mt19937_64& rng, std::array<spread_game::cell, N>& out) {
  std::vector<int> cells(spread_game::grid * spread_game::grid);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = int(i);
  for (size_t i = 0; i < N; ++i) {
    std::uniform_int_distribution<size_t> pick(i, cells.size() - 1);
    std::swap(cells[i], cells[pick(rng)]);
    out[i] = {cells[i] % spread_game::grid, cells[i] / spread_game::grid};
  }
}
}  // namespace

spread_game::spread_game()
    : spec_{id,
            space::box_space({observation_size}, std::vector<double>(observation_size, -1.0),
                             std::vector<double>(observation_size, 1.0)),
            space::discrete_space(5),
            0} {
  spec_.action_labels = {"stay", "up", "down", "left", "right"};
  spec_.pixel_art = true;
  spec_.max_episode_steps = step_limit;
}

void spread_game::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  s_ = {};
  draw_cells(rng, s_.landmark);
  draw_cells(rng, s_.agent);
}

void spread_game::observe(int agent, float* o) const {
  const cell me = s_.agent.at(size_t(agent));
  *o++ = float(me.x) / scale;
  *o++ = float(me.y) / scale;
  for (const cell& l : s_.landmark) {
    *o++ = float(l.x - me.x) / scale;
    *o++ = float(l.y - me.y) / scale;
  }
  for (int j = 0; j < agents; ++j) {
    if (j == agent) continue;
    *o++ = float(s_.agent[size_t(j)].x - me.x) / scale;
    *o++ = float(s_.agent[size_t(j)].y - me.y) / scale;
  }
  for (int j = 0; j < agents; ++j) *o++ = j == agent ? 1.f : 0.f;
}

joint_result spread_game::step(const float* actions) {
  if (s_.steps >= step_limit) throw std::logic_error(std::string(id) + ": stepped after its end");
  for (int a = 0; a < agents; ++a) {
    const int act = int(actions[a]);
    if (act < 0 || act > 4 || float(act) != actions[a])
      throw std::invalid_argument(std::string(id) + ": agent_" + std::to_string(a) + "'s action " +
                                  std::to_string(actions[a]) + " is not one of 0-4");
  }
  for (int a = 0; a < agents; ++a) {
    static constexpr int dx[5] = {0, 0, 0, -1, 1}, dy[5] = {0, -1, 1, 0, 0};
    cell& c = s_.agent[size_t(a)];
    const int act = int(actions[a]);
    c.x = std::clamp(c.x + dx[act], 0, grid - 1);
    c.y = std::clamp(c.y + dy[act], 0, grid - 1);
  }
  int uncovered = 0;
  for (const cell& l : s_.landmark) {
    int nearest = 2 * grid;
    for (const cell& a : s_.agent) nearest = std::min(nearest, distance(a, l));
    uncovered += nearest;
  }
  joint_result r;
  r.rewards.assign(agents, -double(uncovered) / (3.0 * 2 * (grid - 1)));
  for (int a = 0; a < agents; ++a)
    for (int b = 0; b < agents; ++b)
      if (a != b && distance(s_.agent[size_t(a)], s_.agent[size_t(b)]) == 0) r.rewards[size_t(a)] -= collision_penalty;
  r.truncated = ++s_.steps >= step_limit;
  return r;
}

void spread_game::render(rgb_frame& frame) const {
  constexpr int cell_px = 24, size = grid * cell_px;
  constexpr draw::color floor{20, 20, 28}, line{45, 45, 60}, mark{110, 110, 120}, covered{80, 200, 110};
  constexpr draw::color colors[agents] = {{90, 200, 255}, {255, 140, 60}, {230, 90, 200}};
  frame.resize(size, size);
  draw::clear(frame, floor);
  for (int i = 1; i < grid; ++i) {
    draw::fill_rect(frame, i * cell_px, 0, i * cell_px + 1, size, line);
    draw::fill_rect(frame, 0, i * cell_px, size, i * cell_px + 1, line);
  }
  for (const cell& l : s_.landmark) {
    const bool taken = std::any_of(s_.agent.begin(), s_.agent.end(), [&](const cell& a) { return distance(a, l) == 0; });
    draw::fill_rect(frame, l.x * cell_px + 3, l.y * cell_px + 3, (l.x + 1) * cell_px - 2, (l.y + 1) * cell_px - 2,
                    taken ? covered : mark);
  }
  for (int a = 0; a < agents; ++a) {
    const cell c = s_.agent[size_t(a)];
    draw::fill_circle(frame, {(c.x + 0.5) * cell_px, (c.y + 0.5) * cell_px}, cell_px * 0.3, colors[a]);
  }
}

}  // namespace troupe::envs::games
