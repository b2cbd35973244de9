#pragma once
// What the grid games (Spread-v0, Contest-v0) share: cells of a square
// grid, agents that stay or step to a neighbouring cell, distinct cells
// drawn at a reset, and the floor they are drawn on.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::games::grid {

using envs::env_spec;
using envs::rgb_frame;

struct cell {
  int x = 0, y = 0;
};

// |dx| + |dy|.
int distance(cell a, cell b);
bool same(cell a, cell b);
// `count` distinct cells of a `size` x `size` grid, drawn from `rng`.
void draw_distinct(std::mt19937_64& rng, int size, cell* out, int count);

// Actions: 0 stays, 1 up, 2 down, 3 left, 4 right.
extern const std::vector<std::string> move_labels;
// The action `value` is, or std::invalid_argument naming `game` and `agent`.
int move_of(float value, const std::string& game, const std::string& agent);
// `c` after `move`, a wall keeping it where it is.
cell moved(cell c, int move, int size);

// A grid game's spec: a view of `observation_size` floats in [-1, 1], the
// five moves, episodes of `step_limit` steps.
env_spec game_spec(const char* id, int observation_size, int step_limit);

// The floor of a `size` x `size` grid of `cell_px` pixels a cell.
void draw_floor(rgb_frame& frame, int size, int cell_px);

}  // namespace troupe::games::grid
