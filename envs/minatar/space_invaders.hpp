#pragma once
// MinAtar Space Invaders: a cannon in row 9 shoots a block of aliens that
// marches sideways and down, firing back.
#include <array>

#include "envs/minatar/game.hpp"

namespace troupe::envs::minatar {

struct space_invaders : game_basics {
  static constexpr const char* name = "SpaceInvaders";
  static constexpr int channels = 6;
  static constexpr std::array<const char*, channels> channel_names = {
      "cannon", "alien", "alien_left", "alien_right", "friendly_bullet", "enemy_bullet"};
  static constexpr std::array<int, 4> minimal_actions = {noop, left, right, fire};
  static constexpr bool uses_ramping = true;
  static constexpr std::array<colour, channels> palette = {
      colour{80, 220, 120}, colour{230, 230, 230}, colour{200, 120, 220},
      colour{120, 160, 240}, colour{250, 230, 60},  colour{240, 70, 60}};
  static constexpr std::array<int, channels> draw_order = {2, 3, 1, 4, 5, 0};

  static constexpr int shot_cool_down = 5;
  static constexpr int init_move_interval = 12;
  static constexpr int enemy_shot_interval = 10;
  static constexpr int min_move_interval = 6;  // the ramp stops here

  using grid = std::array<std::array<bool, board_size>, board_size>;  // [y][x]

  int cannon_x = 5;
  grid aliens{}, friendly_bullets{}, enemy_bullets{};
  int alien_direction = -1;  // -1 left, +1 right
  int move_interval = init_move_interval;
  int alien_move_timer = init_move_interval;
  int alien_shot_timer = enemy_shot_interval;
  int shot_timer = 0;

  space_invaders() { place_wave(); }
  void reset(numpy_rng& rng);
  act_result act(int a, numpy_rng& rng);
  void observe(float* obs) const;

  // Places a fresh 4x6 block of aliens in rows 0-3, columns 2-7.
  void place_wave();
  int alien_count() const;
};

}  // namespace troupe::envs::minatar
