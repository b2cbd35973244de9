#pragma once
// Connect Four's rules, as PettingZoo's connect_four_v3 states them: a board
// of 6 rows by 7 columns, row 0 at the top; a piece dropped in a column
// falls to its highest free row index (the lowest free cell); player 0
// moves first; four of one player's pieces in a row, a column or either
// diagonal win; a full board without four is a draw. Plain C++: the game
// itself, which the multi-agent environment, the alpha-beta opponent and a
// human's window build on.
#include <array>
#include <cstdint>

namespace troupe::games {

class connect_four {
 public:
  static constexpr int rows = 6, columns = 7;
  static constexpr int observation_size = rows * columns * 2;

  enum class result { playing, won, drawn };

  connect_four() { reset(); }
  // The empty board, player 0 to move.
  void reset();
  // The game a player's observation shows (observe()'s layout), the
  // observer to move: what an opponent that sees only the observation
  // searches from. Throws std::invalid_argument on a board no game reaches
  // (a floating piece, a count of pieces that says the other is to move).
  static connect_four from_observation(const float* observation);

  int to_move() const { return moves_ % 2; }
  int moves() const { return moves_; }
  result state() const { return state_; }
  // The player who made four, or -1.
  int winner() const { return state_ == result::won ? (moves_ - 1) % 2 : -1; }
  // The player whose piece is at (row, column), or -1 for an empty cell.
  int cell(int row, int column) const { return board_[std::size_t(row * columns + column)]; }

  // Whether the player to move may drop a piece in `column`: the game goes
  // on, the column exists and is not full.
  bool legal(int column) const;
  // One byte per column, 1 where legal(column).
  void legal_moves(std::uint8_t* mask) const;
  // Drops the mover's piece in `column` and returns the game's state after
  // it. Throws std::invalid_argument when the move is not legal (nothing
  // changes).
  result play(int column);
  // Takes back the last move played in `column` (the alpha-beta search's
  // way back up); the game goes on again.
  void undo(int column);

  // PettingZoo's observation for `player`: rows x columns x 2 floats
  // ([row][column][plane]), plane 0 `player`'s pieces, plane 1 the other's.
  void observe(int player, float* out) const;

 private:
  // Whether the piece at (row, column) makes four with its own player's.
  bool makes_four(int row, int column) const;

  std::array<std::int8_t, rows * columns> board_{};
  std::array<std::int8_t, columns> height_{};  // pieces in each column
  int moves_ = 0;
  result state_ = result::playing;
};

}  // namespace troupe::games
