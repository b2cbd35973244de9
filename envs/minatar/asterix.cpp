#include "envs/minatar/asterix.hpp"

#include <algorithm>

namespace troupe::envs::minatar {

void asterix::reset(numpy_rng&) {
  const bool keep_ramping = ramping;
  *this = asterix{};
  ramping = keep_ramping;
}

void asterix::spawn(numpy_rng& rng) {
  const bool from_left = rng.uniform() < 0.5;
  const bool gold = rng.uniform() < 1.0 / 3.0;
  int empty[slots], n = 0;
  for (int i = 0; i < slots; ++i)
    if (!entities[i]) empty[n++] = i;
  if (n == 0) return;
  const int slot = empty[rng.randint(0, n)];
  entities[slot] = entity{from_left ? 0 : board_size - 1, from_left, gold};
}

void asterix::touch(int slot, int& reward) {
  const auto& e = entities[slot];
  if (!e || e->x != player_x || slot + 1 != player_y) return;
  if (e->gold) {
    entities[slot].reset();
    reward += 1;
  } else {
    terminal = true;
  }
}

act_result asterix::act(int a, numpy_rng& rng) {
  if (terminal) return {0, true};
  int reward = 0;
  if (spawn_timer == 0) {
    spawn(rng);
    spawn_timer = spawn_interval;
  }
  switch (a) {
    case left: player_x = std::max(0, player_x - 1); break;
    case right: player_x = std::min(board_size - 1, player_x + 1); break;
    case up: player_y = std::max(1, player_y - 1); break;
    case down: player_y = std::min(board_size - 2, player_y + 1); break;
    default: break;
  }
  for (int i = 0; i < slots; ++i) touch(i, reward);
  if (move_timer == 0) {
    move_timer = move_interval;
    for (int i = 0; i < slots; ++i) {
      auto& e = entities[i];
      if (!e) continue;
      e->x += e->heading_right ? 1 : -1;
      if (e->x < 0 || e->x >= board_size)
        e.reset();
      else
        touch(i, reward);
    }
  }
  --spawn_timer;
  --move_timer;
  if (ramping && (spawn_interval > 1 || move_interval > 1)) {
    if (ramp_timer >= 0) {
      --ramp_timer;
    } else {
      if (move_interval > 1 && ramp_index % 2 == 1) --move_interval;
      if (spawn_interval > 1) --spawn_interval;
      ++ramp_index;
      ramp_timer = ramp_interval;
    }
  }
  return {reward, terminal};
}

void asterix::observe(float* obs) const {
  board_writer board(obs, channels);
  board.set(player_x, player_y, 0);
  for (int i = 0; i < slots; ++i) {
    const auto& e = entities[i];
    if (!e) continue;
    board.set(e->x, i + 1, e->gold ? 3 : 1);
    board.set_if_on_board(e->x + (e->heading_right ? -1 : 1), i + 1, 2);
  }
}

}  // namespace troupe::envs::minatar
