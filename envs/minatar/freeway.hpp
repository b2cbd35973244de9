#pragma once
// MinAtar Freeway: a chicken in column 4 crosses eight lanes of wrapping cars.
#include <array>

#include "envs/minatar/game.hpp"

namespace troupe::envs::minatar {

struct freeway : game_basics {
  static constexpr const char* name = "Freeway";
  static constexpr int channels = 7;
  static constexpr std::array<const char*, channels> channel_names = {
      "chicken", "car", "speed1", "speed2", "speed3", "speed4", "speed5"};
  static constexpr std::array<int, 3> minimal_actions = {noop, up, down};
  static constexpr bool uses_ramping = false;
  static constexpr std::array<colour, channels> palette = {
      colour{250, 230, 60}, colour{220, 60, 60},  colour{40, 70, 110}, colour{50, 90, 130},
      colour{60, 110, 150}, colour{70, 130, 170}, colour{80, 150, 190}};
  static constexpr std::array<int, channels> draw_order = {2, 3, 4, 5, 6, 1, 0};

  static constexpr int chicken_x = 4;
  static constexpr int player_speed = 3;  // frames between chicken moves
  static constexpr int time_limit = 2500;
  static constexpr int lanes = 8;  // car i drives in row i + 1

  struct car {
    int x = 0;
    int velocity = 0;  // signed speed, |v| in 1..5; it moves every |v| + 1 frames
    int countdown = 0;
  };

  int chicken_y = board_size - 1;
  int move_timer = player_speed;
  int frames_left = time_limit;
  std::array<car, lanes> cars{};

  void reset(numpy_rng& rng);
  act_result act(int a, numpy_rng& rng);
  void observe(float* obs) const;

 private:
  // New signed speeds for every car (8 integers, then 8 doubles); columns stay.
  void randomize_speeds(numpy_rng& rng);
};

}  // namespace troupe::envs::minatar
