#pragma once
// MinAtar Breakout: a paddle in row 9 bounces a diagonal ball into three rows of bricks.
#include <array>

#include "envs/minatar/game.hpp"

namespace troupe::envs::minatar {

struct breakout : game_basics {
  static constexpr const char* name = "Breakout";
  static constexpr int channels = 4;
  static constexpr std::array<const char*, channels> channel_names = {"paddle", "ball", "trail",
                                                                       "brick"};
  static constexpr std::array<int, 3> minimal_actions = {noop, left, right};
  static constexpr bool uses_ramping = false;
  static constexpr std::array<colour, channels> palette = {
      colour{230, 230, 230}, colour{255, 120, 40}, colour{120, 70, 40}, colour{70, 130, 220}};
  static constexpr std::array<int, channels> draw_order = {3, 2, 1, 0};

  // Ball headings, diagonal.
  enum heading : int { up_left = 0, up_right = 1, down_right = 2, down_left = 3 };

  int paddle_x = 4;
  int ball_x = 0, ball_y = 3, ball_heading = down_right;
  int last_x = 0, last_y = 3;  // the ball's previous cell
  bool struck_last_frame = false;
  std::array<std::array<bool, board_size>, board_size> bricks{};  // [y][x]

  void reset(numpy_rng& rng);
  act_result act(int a, numpy_rng& rng);
  void observe(float* obs) const;

 private:
  void fill_bricks();
};

}  // namespace troupe::envs::minatar
