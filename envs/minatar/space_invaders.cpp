#include "envs/minatar/space_invaders.hpp"

#include <algorithm>
#include <cstdlib>

namespace troupe::envs::minatar {

void space_invaders::place_wave() {
  for (auto& row : aliens) row.fill(false);
  for (int y = 0; y <= 3; ++y)
    for (int x = 2; x <= 7; ++x) aliens[y][x] = true;
}

int space_invaders::alien_count() const {
  int n = 0;
  for (const auto& row : aliens)
    for (bool a : row) n += a;
  return n;
}

void space_invaders::reset(numpy_rng&) {
  const bool keep_ramping = ramping;
  *this = space_invaders{};
  ramping = keep_ramping;
}

act_result space_invaders::act(int a, numpy_rng&) {
  if (terminal) return {0, true};
  constexpr int bottom = board_size - 1;
  int reward = 0;
  // 1. The first action rule that applies.
  if (a == fire && shot_timer == 0) {
    friendly_bullets[bottom][cannon_x] = true;
    shot_timer = shot_cool_down;
  } else if (a == left) {
    cannon_x = std::max(0, cannon_x - 1);
  } else if (a == right) {
    cannon_x = std::min(bottom, cannon_x + 1);
  }
  // 2-3. Bullets move; those leaving the board vanish.
  std::rotate(friendly_bullets.begin(), friendly_bullets.begin() + 1, friendly_bullets.end());
  friendly_bullets[bottom].fill(false);
  std::rotate(enemy_bullets.rbegin(), enemy_bullets.rbegin() + 1, enemy_bullets.rend());
  enemy_bullets[0].fill(false);
  if (enemy_bullets[bottom][cannon_x]) terminal = true;
  // 4. An alien on the cannon.
  if (aliens[bottom][cannon_x]) terminal = true;
  // 5. The block moves on its timer: sideways, or down and turning at an edge.
  if (alien_move_timer == 0) {
    alien_move_timer = std::min(alien_count(), move_interval);
    bool at_edge = false, in_bottom_row = false;
    for (int y = 0; y < board_size; ++y) {
      at_edge = at_edge || (alien_direction < 0 && aliens[y][0]) ||
                (alien_direction > 0 && aliens[y][bottom]);
      in_bottom_row = in_bottom_row || (y == bottom && std::any_of(aliens[y].begin(),
                                                                   aliens[y].end(),
                                                                   [](bool v) { return v; }));
    }
    if (at_edge) {
      alien_direction = -alien_direction;
      if (in_bottom_row) terminal = true;
      std::rotate(aliens.rbegin(), aliens.rbegin() + 1, aliens.rend());  // down, wrapping
    } else {
      for (auto& row : aliens) {
        if (alien_direction > 0)
          std::rotate(row.rbegin(), row.rbegin() + 1, row.rend());
        else
          std::rotate(row.begin(), row.begin() + 1, row.end());
      }
    }
    if (aliens[bottom][cannon_x]) terminal = true;
  }
  // 6. The alien nearest the cannon's column (ties to the left) fires from its cell.
  if (alien_shot_timer == 0) {
    alien_shot_timer = enemy_shot_interval;
    int best_x = -1, best_y = -1;
    for (int x = 0; x < board_size; ++x) {
      int lowest = -1;
      for (int y = 0; y < board_size; ++y)
        if (aliens[y][x]) lowest = y;
      if (lowest < 0) continue;
      if (best_x < 0 || std::abs(x - cannon_x) < std::abs(best_x - cannon_x))
        best_x = x, best_y = lowest;
    }
    if (best_x >= 0) enemy_bullets[best_y][best_x] = true;
  }
  // 7. Hits.
  for (int y = 0; y < board_size; ++y)
    for (int x = 0; x < board_size; ++x)
      if (aliens[y][x] && friendly_bullets[y][x]) {
        aliens[y][x] = friendly_bullets[y][x] = false;
        reward += 1;
      }
  // 8. Timers.
  if (shot_timer > 0) --shot_timer;
  --alien_move_timer;
  --alien_shot_timer;
  // 9. A cleared wave: ramp, then a fresh block.
  if (alien_count() == 0) {
    if (ramping && move_interval > min_move_interval) {
      --move_interval;
      ++ramp_index;
    }
    place_wave();
  }
  return {reward, terminal};
}

void space_invaders::observe(float* obs) const {
  board_writer board(obs, channels);
  board.set(cannon_x, board_size - 1, 0);
  const int direction_channel = alien_direction < 0 ? 2 : 3;
  for (int y = 0; y < board_size; ++y)
    for (int x = 0; x < board_size; ++x) {
      if (aliens[y][x]) {
        board.set(x, y, 1);
        board.set(x, y, direction_channel);
      }
      if (friendly_bullets[y][x]) board.set(x, y, 4);
      if (enemy_bullets[y][x]) board.set(x, y, 5);
    }
}

}  // namespace troupe::envs::minatar
