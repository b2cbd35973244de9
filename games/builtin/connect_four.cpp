#include "games/builtin/connect_four.hpp"

#include <stdexcept>
#include <string>

namespace troupe::games {

void connect_four::reset() {
  board_.fill(-1);
  height_.fill(0);
  moves_ = 0;
  state_ = result::playing;
}

connect_four connect_four::from_observation(const float* observation) {
  connect_four game;
  int mine = 0, theirs = 0;
  for (int i = 0; i < rows * columns; ++i) {
    mine += observation[2 * i] > 0.5f;
    theirs += observation[2 * i + 1] > 0.5f;
  }
  // The observer moves next: equal counts if it moves first, one fewer else.
  if (mine != theirs && mine + 1 != theirs)
    throw std::invalid_argument("connect_four: an observation with " + std::to_string(mine) + " and " +
                                std::to_string(theirs) + " pieces is not the mover's view");
  const int observer = mine == theirs ? 0 : 1;
  for (int c = 0; c < columns; ++c)
    for (int r = rows - 1; r >= 0; --r) {
      const int i = r * columns + c;
      const bool a = observation[2 * i] > 0.5f, b = observation[2 * i + 1] > 0.5f;
      if (!a && !b) {
        for (int above = r - 1; above >= 0; --above)
          if (observation[2 * (above * columns + c)] > 0.5f || observation[2 * (above * columns + c) + 1] > 0.5f)
            throw std::invalid_argument("connect_four: a piece floats above an empty cell in column " +
                                        std::to_string(c));
        break;
      }
      game.board_[std::size_t(i)] = std::int8_t(a ? observer : 1 - observer);
      ++game.height_[std::size_t(c)];
    }
  game.moves_ = mine + theirs;
  return game;
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

}  // namespace troupe::games
