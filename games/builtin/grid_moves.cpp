#include "games/builtin/grid_moves.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "envs/draw.hpp"

namespace troupe::games::grid {

using envs::space;

int distance(cell a, cell b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

bool same(cell a, cell b) { return a.x == b.x && a.y == b.y; }

void draw_distinct(std::mt19937_64& rng, int size, cell* out, int count) {
  std::vector<int> cells(size_t(size * size));
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = int(i);
  for (size_t i = 0; i < size_t(count); ++i) {
    std::uniform_int_distribution<size_t> pick(i, cells.size() - 1);
    std::swap(cells[i], cells[pick(rng)]);
    out[i] = {cells[i] % size, cells[i] / size};
  }
}

const std::vector<std::string> move_labels = {"stay", "up", "down", "left", "right"};

int move_of(float value, const std::string& game, const std::string& agent) {
  const int move = int(value);
  if (move < 0 || move > 4 || float(move) != value)
    throw std::invalid_argument(game + ": " + agent + "'s action " + std::to_string(value) + " is not one of 0-4");
  return move;
}

cell moved(cell c, int move, int size) {
  static constexpr int dx[5] = {0, 0, 0, -1, 1}, dy[5] = {0, -1, 1, 0, 0};
  return {std::clamp(c.x + dx[move], 0, size - 1), std::clamp(c.y + dy[move], 0, size - 1)};
}

env_spec game_spec(const char* id, int observation_size, int step_limit) {
  env_spec spec{id,
                space::box_space({observation_size}, std::vector<double>(size_t(observation_size), -1.0),
                                 std::vector<double>(size_t(observation_size), 1.0)),
                space::discrete_space(5), 0};
  spec.action_labels = move_labels;
  spec.pixel_art = true;
  spec.max_episode_steps = step_limit;
  return spec;
}

void draw_floor(rgb_frame& frame, int size, int cell_px) {
  constexpr envs::draw::color floor{20, 20, 28}, line{45, 45, 60};
  frame.resize(size * cell_px, size * cell_px);
  envs::draw::clear(frame, floor);
  for (int i = 1; i < size; ++i) {
    envs::draw::fill_rect(frame, i * cell_px, 0, i * cell_px + 1, size * cell_px, line);
    envs::draw::fill_rect(frame, 0, i * cell_px, size * cell_px, i * cell_px + 1, line);
  }
}

}  // namespace troupe::games::grid
