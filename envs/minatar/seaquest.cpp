#include "envs/minatar/seaquest.hpp"

#include <algorithm>

namespace troupe::envs::minatar {

namespace {
// Removes the first element equal to `value`, as Python's list.remove does, and
// returns where it was (-1 when none was equal).
template <class T>
std::ptrdiff_t remove_value(std::vector<T>& list, const T& value) {
  const auto it = std::find(list.begin(), list.end(), value);
  if (it == list.end()) return -1;
  const std::ptrdiff_t at = it - list.begin();
  list.erase(it);
  return at;
}

// The first element on cell (x, y), or list.end().
template <class T>
auto find_at(std::vector<T>& list, int x, int y) {
  return std::find_if(list.begin(), list.end(),
                      [&](const T& e) { return e.x == x && e.y == y; });
}

bool off_board(int x) { return x < 0 || x >= board_size; }
int step(bool heading_right) { return heading_right ? 1 : -1; }

// Python's floor division, for the (never negative in practice) oxygen gauge.
int floor_div(int a, int b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Visits `list` newest first like Python's reversed(list): an index that walks
// down, so removing the visited element (or an older one) never skips a newer one.
template <class T, class F>
void for_each_newest_first(std::vector<T>& list, F&& visit) {
  for (std::ptrdiff_t i = std::ptrdiff_t(list.size()) - 1; i >= 0; --i) {
    if (i >= std::ptrdiff_t(list.size())) break;
    visit(list[i]);
  }
}
}  // namespace

void seaquest::reset(numpy_rng&) {
  const bool keep_ramping = ramping;
  *this = seaquest{};
  ramping = keep_ramping;
}

void seaquest::spawn_enemy(numpy_rng& rng) {
  const bool from_left = rng.uniform() < 0.5;
  const bool is_sub = rng.uniform() < 1.0 / 3.0;
  const int x = from_left ? 0 : board_size - 1;
  const int y = rng.randint(1, 9);
  for (const auto& f : fish)
    if (f.y == y && f.heading_right != from_left) return;
  for (const auto& s : subs)
    if (s.y == y && s.heading_right != from_left) return;
  if (is_sub)
    subs.push_back({x, y, from_left, move_interval, enemy_shot_interval});
  else
    fish.push_back({x, y, from_left, move_interval});
}

void seaquest::spawn_diver(numpy_rng& rng) {
  const bool from_left = rng.uniform() < 0.5;
  const int x = from_left ? 0 : board_size - 1;
  const int y = rng.randint(1, 9);
  divers.push_back({x, y, from_left, diver_move_interval});
}

void seaquest::move_fish(int& reward) {
  for_each_newest_first(fish, [&](mover& e) {
    if (at_player(e.x, e.y)) terminal = true;
    if (e.move_timer == 0) {
      e.move_timer = move_interval;
      e.x += step(e.heading_right);
      if (off_board(e.x)) {
        remove_value(fish, mover(e));
      } else if (at_player(e.x, e.y)) {
        terminal = true;
      } else if (auto b = find_at(friendly_bullets, e.x, e.y); b != friendly_bullets.end()) {
        friendly_bullets.erase(b);
        remove_value(fish, mover(e));
        reward += 1;
      }
    } else {
      --e.move_timer;
    }
  });
}

void seaquest::surface(int& reward) {
  surfaced = true;
  if (diver_count == max_divers) {
    diver_count = 0;
    reward += floor_div(oxygen * 10, max_oxygen);
  }
  oxygen = max_oxygen;
  diver_count -= 1;
  if (ramping && (spawn_interval > 1 || move_interval > 2)) {
    if (move_interval > 2 && ramp_index % 2 == 1) --move_interval;
    if (spawn_interval > 1) --spawn_interval;
    ++ramp_index;
  }
}

act_result seaquest::act(int a, numpy_rng& rng) {
  if (terminal) return {0, true};
  int reward = 0;
  // 1-2. Spawns.
  if (spawn_timer == 0) {
    spawn_enemy(rng);
    spawn_timer = spawn_interval;
  }
  if (diver_spawn_timer == 0) {
    spawn_diver(rng);
    diver_spawn_timer = diver_spawn_interval;
  }
  // 3. The player's action: the first rule that applies.
  if (a == fire && shot_timer == 0) {
    friendly_bullets.push_back({sub_x, sub_y, sub_facing_right});
    shot_timer = shot_cool_down;
  } else if (a == left) {
    sub_x = std::max(0, sub_x - 1);
    sub_facing_right = false;
  } else if (a == right) {
    sub_x = std::min(board_size - 1, sub_x + 1);
    sub_facing_right = true;
  } else if (a == up) {
    sub_y = std::max(0, sub_y - 1);
  } else if (a == down) {
    sub_y = std::min(board_size - 2, sub_y + 1);
  }
  // 4. Friendly bullets.
  for_each_newest_first(friendly_bullets, [&](bullet& b) {
    b.x += step(b.heading_right);
    if (off_board(b.x)) {
      remove_value(friendly_bullets, bullet(b));
    } else if (auto f = find_at(fish, b.x, b.y); f != fish.end()) {
      fish.erase(f);
      remove_value(friendly_bullets, bullet(b));
      reward += 1;
    } else if (auto s = find_at(subs, b.x, b.y); s != subs.end()) {
      subs.erase(s);
      remove_value(friendly_bullets, bullet(b));
      reward += 1;
    }
  });
  // 5. Divers.
  for_each_newest_first(divers, [&](mover& d) {
    if (at_player(d.x, d.y) && diver_count < max_divers) {
      remove_value(divers, mover(d));
      diver_count += 1;
    } else if (d.move_timer == 0) {
      d.move_timer = diver_move_interval;
      d.x += step(d.heading_right);
      if (off_board(d.x)) {
        remove_value(divers, mover(d));
      } else if (at_player(d.x, d.y) && diver_count < max_divers) {
        remove_value(divers, mover(d));
        diver_count += 1;
      }
    } else {
      --d.move_timer;
    }
  });
  // 6. Enemy subs: move, then count down to a shot, even when just removed.
  for (std::ptrdiff_t i = std::ptrdiff_t(subs.size()) - 1; i >= 0; --i) {
    if (i >= std::ptrdiff_t(subs.size())) break;
    std::ptrdiff_t current = i;  // where this sub sits in the list; -1 once removed
    enemy_sub removed{};         // the sub's last value after removal
    auto remove_current = [&] {
      removed = subs[current];
      const std::ptrdiff_t at = remove_value(subs, removed);
      current = at == current ? -1 : current - 1;  // an older equal one may go instead
    };
    auto sub = [&]() -> enemy_sub& { return current >= 0 ? subs[current] : removed; };
    if (at_player(sub().x, sub().y)) terminal = true;
    if (sub().move_timer == 0) {
      sub().move_timer = move_interval;
      sub().x += step(sub().heading_right);
      if (off_board(sub().x)) {
        remove_current();
      } else if (at_player(sub().x, sub().y)) {
        terminal = true;
      } else if (auto b = find_at(friendly_bullets, sub().x, sub().y);
                 b != friendly_bullets.end()) {
        friendly_bullets.erase(b);
        remove_current();
        reward += 1;
      }
    } else {
      --sub().move_timer;
    }
    if (sub().shot_timer == 0) {
      sub().shot_timer = enemy_shot_interval;
      enemy_bullets.push_back({sub().x, sub().y, sub().heading_right});
    } else {
      --sub().shot_timer;
    }
  }
  // 7. Enemy bullets, including the ones just fired.
  for_each_newest_first(enemy_bullets, [&](bullet& b) {
    if (at_player(b.x, b.y)) terminal = true;
    b.x += step(b.heading_right);
    if (off_board(b.x))
      remove_value(enemy_bullets, bullet(b));
    else if (at_player(b.x, b.y))
      terminal = true;
  });
  // 8. Fish.
  move_fish(reward);
  // 9. Timers.
  if (spawn_timer > 0) --spawn_timer;
  if (diver_spawn_timer > 0) --diver_spawn_timer;
  if (shot_timer > 0) --shot_timer;
  // 10-11. Oxygen and depth.
  if (oxygen <= 0) terminal = true;
  if (sub_y > 0) {
    oxygen -= 1;
    surfaced = false;
  } else if (!surfaced) {
    if (diver_count == 0)
      terminal = true;
    else
      surface(reward);
  }
  return {reward, terminal};
}

void seaquest::observe(float* obs) const {
  board_writer board(obs, channels);
  board.set(sub_x, sub_y, 0);
  board.set_if_on_board(sub_x + (sub_facing_right ? -1 : 1), sub_y, 1);
  const int oxygen_cells = floor_div(std::max(0, oxygen) * 10, max_oxygen);
  for (int x = 0; x < oxygen_cells; ++x) board.set(x, board_size - 1, 7);
  for (int x = board_size - 1 - diver_count; x < board_size - 1; ++x)
    if (x >= 0) board.set(x, board_size - 1, 8);
  for (const auto& b : friendly_bullets) board.set_if_on_board(b.x, b.y, 2);
  for (const auto& b : enemy_bullets) board.set_if_on_board(b.x, b.y, 4);
  auto draw = [&](int x, int y, bool heading_right, int channel) {
    board.set_if_on_board(x, y, channel);
    board.set_if_on_board(x - step(heading_right), y, 3);
  };
  for (const auto& f : fish) draw(f.x, f.y, f.heading_right, 5);
  for (const auto& s : subs) draw(s.x, s.y, s.heading_right, 6);
  for (const auto& d : divers) draw(d.x, d.y, d.heading_right, 9);
}

}  // namespace troupe::envs::minatar
