#include "envs/minatar/freeway.hpp"

#include <algorithm>
#include <cstdlib>

namespace troupe::envs::minatar {

void freeway::randomize_speeds(numpy_rng& rng) {
  int speeds[lanes];
  for (int& s : speeds) s = rng.randint(1, 6);
  for (int i = 0; i < lanes; ++i) {
    const double d = rng.uniform();
    const int direction = d > 0.5 ? 1 : (d < 0.5 ? -1 : 0);
    cars[i].velocity = speeds[i] * direction;
    cars[i].countdown = speeds[i];
  }
}

void freeway::reset(numpy_rng& rng) {
  for (auto& c : cars) c.x = 0;
  randomize_speeds(rng);
  chicken_y = board_size - 1;
  move_timer = player_speed;
  frames_left = time_limit;
  terminal = false;
}

act_result freeway::act(int a, numpy_rng& rng) {
  if (terminal) return {0, true};
  int reward = 0;
  if (a == up && move_timer == 0) {
    move_timer = player_speed;
    chicken_y = std::max(0, chicken_y - 1);
  } else if (a == down && move_timer == 0) {
    move_timer = player_speed;
    chicken_y = std::min(board_size - 1, chicken_y + 1);
  }
  if (chicken_y == 0) {
    reward += 1;
    randomize_speeds(rng);
    chicken_y = board_size - 1;
  }
  for (int i = 0; i < lanes; ++i) {
    car& c = cars[i];
    const int row = i + 1;
    if (c.x == chicken_x && row == chicken_y) chicken_y = board_size - 1;
    if (c.countdown == 0) {
      c.countdown = std::abs(c.velocity);
      c.x += (c.velocity > 0) - (c.velocity < 0);
      if (c.x < 0) c.x = board_size - 1;
      if (c.x >= board_size) c.x = 0;
      if (c.x == chicken_x && row == chicken_y) chicken_y = board_size - 1;
    } else {
      --c.countdown;
    }
  }
  if (move_timer > 0) --move_timer;
  if (--frames_left < 0) terminal = true;
  return {reward, terminal};
}

void freeway::observe(float* obs) const {
  board_writer board(obs, channels);
  board.set(chicken_x, chicken_y, 0);
  for (int i = 0; i < lanes; ++i) {
    const car& c = cars[i];
    const int row = i + 1;
    board.set(c.x, row, 1);
    const int speed = std::abs(c.velocity);
    if (speed == 0) continue;
    int back = c.x - (c.velocity > 0 ? 1 : -1);
    if (back < 0) back = board_size - 1;
    if (back >= board_size) back = 0;
    board.set(back, row, 1 + speed);
  }
}

}  // namespace troupe::envs::minatar
