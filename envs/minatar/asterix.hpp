#pragma once
// MinAtar Asterix: dodge enemies and collect gold that cross the rows 1..8.
#include <array>
#include <optional>

#include "envs/minatar/game.hpp"

namespace troupe::envs::minatar {

struct asterix : game_basics {
  static constexpr const char* name = "Asterix";
  static constexpr int channels = 4;
  static constexpr std::array<const char*, channels> channel_names = {"player", "enemy", "trail",
                                                                       "gold"};
  static constexpr std::array<int, 5> minimal_actions = {noop, left, up, right, down};
  static constexpr bool uses_ramping = true;
  static constexpr std::array<colour, channels> palette = {
      colour{80, 160, 255}, colour{230, 60, 60}, colour{110, 60, 60}, colour{250, 210, 40}};
  static constexpr std::array<int, channels> draw_order = {2, 1, 3, 0};  // last drawn on top

  static constexpr int ramp_interval = 100;
  static constexpr int init_spawn_interval = 10;
  static constexpr int init_move_interval = 5;
  static constexpr int slots = 8;  // slot i holds row i + 1

  struct entity {
    int x = 0;
    bool heading_right = false;
    bool gold = false;
  };

  int player_x = 5, player_y = 5;
  std::array<std::optional<entity>, slots> entities{};
  int spawn_interval = init_spawn_interval, spawn_timer = init_spawn_interval;
  int move_interval = init_move_interval, move_timer = init_move_interval;
  int ramp_timer = ramp_interval;

  void reset(numpy_rng& rng);
  act_result act(int a, numpy_rng& rng);
  void observe(float* obs) const;

 private:
  void spawn(numpy_rng& rng);
  // Applies contact between the player and the entity in `slot`.
  void touch(int slot, int& reward);
};

}  // namespace troupe::envs::minatar
