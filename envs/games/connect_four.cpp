#include "envs/games/connect_four.hpp"

#include <stdexcept>
#include <string>

namespace troupe::envs::games {

void connect_four::reset() {
  board_.fill(-1);
  height_.fill(0);
  moves_ = 0;
  state_ = result::playing;
}

bool connect_four::legal(int column) const {
  return state_ == result::playing && column >= 0 && column < columns && height_[std::size_t(column)] < rows;
}

void connect_four::legal_moves(std::uint8_t* mask) const {
  for (int c = 0; c < columns; ++c) mask[c] = legal(c) ? 1 : 0;
}

connect_four::result connect_four::play(int column) {
  if (!legal(column))
    throw std::invalid_argument(state_ != result::playing ? "connect four: the game is over"
                                                          : "connect four: column " + std::to_string(column) +
                                                                " is not a legal move (0-6, not full)");
  // Row 0 is the top: the piece lands on the highest free row index.
  const int row = rows - 1 - height_[std::size_t(column)];
  board_[std::size_t(row * columns + column)] = std::int8_t(to_move());
  ++height_[std::size_t(column)];
  ++moves_;
  if (makes_four(row, column))
    state_ = result::won;
  else if (moves_ == rows * columns)
    state_ = result::drawn;
  return state_;
}

void connect_four::undo(int column) {
  const int row = rows - height_[std::size_t(column)];
  board_[std::size_t(row * columns + column)] = -1;
  --height_[std::size_t(column)];
  --moves_;
  state_ = result::playing;
}

bool connect_four::makes_four(int row, int column) const {
  const int player = cell(row, column);
  // Each direction and its opposite: the run through (row, column).
  const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (const auto& d : directions) {
    int run = 1;
    for (int sign : {1, -1})
      for (int r = row + sign * d[0], c = column + sign * d[1];
           r >= 0 && r < rows && c >= 0 && c < columns && cell(r, c) == player; r += sign * d[0], c += sign * d[1])
        ++run;
    if (run >= 4) return true;
  }
  return false;
}

void connect_four::observe(int player, float* out) const {
  for (int i = 0; i < rows * columns; ++i) {
    const int owner = board_[std::size_t(i)];
    out[2 * i] = owner == player ? 1.0f : 0.0f;
    out[2 * i + 1] = owner >= 0 && owner != player ? 1.0f : 0.0f;
  }
}

}  // namespace troupe::envs::games
