#pragma once
// MinAtar Seaquest: a submarine shoots fish and enemy subs, rescues divers and
// surfaces with them before its oxygen runs out.
#include <array>
#include <vector>

#include "envs/minatar/game.hpp"

namespace troupe::envs::minatar {

struct seaquest : game_basics {
  static constexpr const char* name = "Seaquest";
  static constexpr int channels = 10;
  static constexpr std::array<const char*, channels> channel_names = {
      "sub_front",    "sub_back",  "friendly_bullet", "trail",        "enemy_bullet",
      "enemy_fish",   "enemy_sub", "oxygen_guage",    "diver_guage",  "diver"};
  static constexpr std::array<int, 6> minimal_actions = {noop, left, up, right, down, fire};
  static constexpr bool uses_ramping = true;
  static constexpr std::array<colour, channels> palette = {
      colour{250, 220, 50},  colour{190, 160, 30}, colour{255, 255, 255}, colour{70, 70, 90},
      colour{255, 90, 200},  colour{230, 60, 60},  colour{160, 70, 230},  colour{60, 200, 230},
      colour{60, 220, 100},  colour{140, 240, 160}};
  static constexpr std::array<int, channels> draw_order = {3, 7, 8, 9, 5, 6, 4, 2, 1, 0};

  static constexpr int max_oxygen = 200;
  static constexpr int init_spawn_interval = 20;
  static constexpr int diver_spawn_interval = 30;
  static constexpr int init_move_interval = 5;
  static constexpr int shot_cool_down = 5;
  static constexpr int enemy_shot_interval = 10;
  static constexpr int diver_move_interval = 5;
  static constexpr int max_divers = 6;

  // Every list element compares by value, as the reference removes by value.
  struct bullet {
    int x, y;
    bool heading_right;
    bool operator==(const bullet& o) const {
      return x == o.x && y == o.y && heading_right == o.heading_right;
    }
  };
  struct mover {  // a fish or a diver
    int x, y;
    bool heading_right;
    int move_timer;
    bool operator==(const mover& o) const {
      return x == o.x && y == o.y && heading_right == o.heading_right &&
             move_timer == o.move_timer;
    }
  };
  struct enemy_sub {
    int x, y;
    bool heading_right;
    int move_timer;
    int shot_timer;
    bool operator==(const enemy_sub& o) const {
      return x == o.x && y == o.y && heading_right == o.heading_right &&
             move_timer == o.move_timer && shot_timer == o.shot_timer;
    }
  };

  int sub_x = 5, sub_y = 0;
  bool sub_facing_right = false;
  int oxygen = max_oxygen;
  int diver_count = 0;  // may reach -1 after a six-diver surfacing, as in the reference
  int shot_timer = 0;
  bool surfaced = true;
  std::vector<bullet> friendly_bullets, enemy_bullets;
  std::vector<mover> fish, divers;
  std::vector<enemy_sub> subs;
  int spawn_interval = init_spawn_interval, spawn_timer = init_spawn_interval;
  int diver_spawn_timer = diver_spawn_interval;
  int move_interval = init_move_interval;

  void reset(numpy_rng& rng);
  act_result act(int a, numpy_rng& rng);
  void observe(float* obs) const;

 private:
  void spawn_enemy(numpy_rng& rng);
  void spawn_diver(numpy_rng& rng);
  bool at_player(int x, int y) const { return x == sub_x && y == sub_y; }
  // Fish, newest first: contact with the player, then a move on their timer,
  // leaving the board or meeting a friendly bullet removes them.
  void move_fish(int& reward);
  void surface(int& reward);
};

}  // namespace troupe::envs::minatar
