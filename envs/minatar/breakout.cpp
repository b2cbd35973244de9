#include "envs/minatar/breakout.hpp"

#include <algorithm>

namespace troupe::envs::minatar {

namespace {
constexpr int mirror_horizontal[4] = {1, 0, 3, 2};
constexpr int mirror_vertical[4] = {3, 2, 1, 0};
constexpr int reverse[4] = {2, 3, 0, 1};
constexpr int step_x[4] = {-1, 1, 1, -1};
constexpr int step_y[4] = {-1, -1, 1, 1};
}  // namespace

void breakout::fill_bricks() {
  for (int y = 1; y <= 3; ++y) bricks[y].fill(true);
}

void breakout::reset(numpy_rng& rng) {
  paddle_x = 4;
  ball_y = 3;
  if (rng.randint(0, 2) == 0) {
    ball_x = 0, ball_heading = down_right;
  } else {
    ball_x = board_size - 1, ball_heading = down_left;
  }
  last_x = ball_x, last_y = ball_y;
  struck_last_frame = false;
  for (auto& row : bricks) row.fill(false);
  fill_bricks();
  terminal = false;
}

act_result breakout::act(int a, numpy_rng&) {
  if (terminal) return {0, true};
  int reward = 0;
  if (a == left) paddle_x = std::max(0, paddle_x - 1);
  if (a == right) paddle_x = std::min(board_size - 1, paddle_x + 1);

  last_x = ball_x, last_y = ball_y;
  int x = ball_x + step_x[ball_heading];
  int y = ball_y + step_y[ball_heading];
  bool touched_brick = false;
  if (x < 0 || x >= board_size) {
    x = std::clamp(x, 0, board_size - 1);
    ball_heading = mirror_horizontal[ball_heading];
  }
  if (y < 0) {
    y = 0;
    ball_heading = mirror_vertical[ball_heading];
  } else if (bricks[y][x]) {
    touched_brick = true;
    if (!struck_last_frame) {
      reward += 1;
      struck_last_frame = true;
      bricks[y][x] = false;
      y = last_y;
      ball_heading = mirror_vertical[ball_heading];
    }
  } else if (y == board_size - 1) {
    bool any = false;
    for (const auto& row : bricks)
      for (bool b : row) any = any || b;
    if (!any) fill_bricks();
    if (ball_x == paddle_x) {
      ball_heading = mirror_vertical[ball_heading];
      y = last_y;
    } else if (x == paddle_x) {
      ball_heading = reverse[ball_heading];
      y = last_y;
    } else {
      terminal = true;
    }
  }
  if (!touched_brick) struck_last_frame = false;
  ball_x = x, ball_y = y;
  return {reward, terminal};
}

void breakout::observe(float* obs) const {
  board_writer board(obs, channels);
  board.set(ball_x, ball_y, 1);
  board.set(paddle_x, board_size - 1, 0);
  board.set(last_x, last_y, 2);
  for (int y = 0; y < board_size; ++y)
    for (int x = 0; x < board_size; ++x)
      if (bricks[y][x]) board.set(x, y, 3);
}

}  // namespace troupe::envs::minatar
