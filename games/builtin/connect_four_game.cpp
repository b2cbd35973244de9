#include "games/builtin/connect_four_game.hpp"

#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::games {

using envs::space;

connect_four_game::connect_four_game()
    : spec_{id,
            space::box_space({connect_four::rows, connect_four::columns, 2},
                             std::vector<double>(connect_four::observation_size, 0.0),
                             std::vector<double>(connect_four::observation_size, 1.0)),
            space::discrete_space(connect_four::columns), 0} {
  spec_.has_action_mask = true;
  for (int c = 0; c < connect_four::columns; ++c) spec_.action_labels.push_back("column " + std::to_string(c));
}

turn_result connect_four_game::step(const float* action) {
  const float a = action[0];
  if (!(a >= 0 && a < connect_four::columns && a == float(int(a))))
    throw std::invalid_argument(std::string(id) + ": action " + std::to_string(a) + " is not a column (0-6)");
  const int mover = game_.to_move();
  const connect_four::result after = game_.play(int(a));  // throws on a full column
  turn_result result;
  result.rewards.assign(2, 0.0);
  if (after == connect_four::result::won) {
    result.rewards[size_t(mover)] = 1.0;
    result.rewards[size_t(1 - mover)] = -1.0;
  }
  result.terminated = after != connect_four::result::playing;
  return result;
}

void connect_four_game::render(rgb_frame& frame) const {
  constexpr int cell = 48;
  constexpr envs::draw::color board{30, 70, 170}, empty{20, 20, 30}, first{220, 60, 50}, second{240, 210, 60};
  frame.resize(connect_four::columns * cell, connect_four::rows * cell);
  envs::draw::clear(frame, board);
  for (int r = 0; r < connect_four::rows; ++r)
    for (int c = 0; c < connect_four::columns; ++c) {
      const int owner = game_.cell(r, c);
      envs::draw::fill_circle(frame, {(c + 0.5) * cell, (r + 0.5) * cell}, cell * 0.4,
                        owner == 0 ? first : owner == 1 ? second : empty);
    }
}

int connect_four_game::action_at(double u, double v) const {
  if (u < 0 || u >= 1 || v < 0 || v >= 1) return -1;
  return int(u * connect_four::columns);
}

}  // namespace troupe::games
