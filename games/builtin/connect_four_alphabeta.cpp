#include "games/builtin/connect_four_alphabeta.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace troupe::games {

namespace {

using board = connect_four;
constexpr int rows = board::rows, columns = board::columns;
// Centre first: the search prunes more, and ties go to the centre.
constexpr int column_order[columns] = {3, 2, 4, 1, 5, 0, 6};

// The horizon's estimate for `player`: each window of four holding only
// one player's pieces and empty cells counts for that player, 2 for two
// pieces and 5 for three; each piece in the centre column counts 3.
int horizon_estimate(const board& game, int player) {
  int score = 0;
  const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      for (const auto& d : directions) {
        const int r_end = r + 3 * d[0], c_end = c + 3 * d[1];
        if (r_end < 0 || r_end >= rows || c_end < 0 || c_end >= columns) continue;
        int mine = 0, theirs = 0;
        for (int k = 0; k < 4; ++k) {
          const int owner = game.cell(r + k * d[0], c + k * d[1]);
          mine += owner == player ? 1 : 0;
          theirs += owner >= 0 && owner != player ? 1 : 0;
        }
        const int weight[5] = {0, 0, 2, 5, 0};  // four would have ended the game
        if (theirs == 0) score += weight[mine];
        if (mine == 0) score -= weight[theirs];
      }
  for (int r = 0; r < rows; ++r) {
    const int owner = game.cell(r, columns / 2);
    score += owner == player ? 3 : owner >= 0 ? -3 : 0;
  }
  return score;
}

int negamax(board& game, int depth, int alpha, int beta) {
  // The player who just moved made four: the one to move has lost.
  if (game.state() == board::result::won) return -(win_score - game.moves());
  if (game.state() == board::result::drawn) return 0;
  if (depth == 0) return horizon_estimate(game, game.to_move());
  int best = std::numeric_limits<int>::min() / 2;
  for (int c : column_order) {
    if (!game.legal(c)) continue;
    game.play(c);
    const int value = -negamax(game, depth - 1, -beta, -alpha);
    game.undo(c);
    best = std::max(best, value);
    alpha = std::max(alpha, value);
    if (alpha >= beta) break;
  }
  return best;
}

}  // namespace

int alphabeta_score(connect_four& game, int depth) {
  const int infinity = std::numeric_limits<int>::max() / 2;
  return negamax(game, std::max(0, depth), -infinity, infinity);
}

int alphabeta_move(connect_four& game, int depth, std::mt19937_64* rng) {
  if (game.state() != connect_four::result::playing)
    throw std::invalid_argument("alphabeta_move: the game is over");
  const int infinity = std::numeric_limits<int>::max() / 2;
  // Each root move with the full window, so equal moves score equally.
  std::vector<int> best;
  int best_value = -infinity;
  for (int c : column_order) {
    if (!game.legal(c)) continue;
    game.play(c);
    const int value = -negamax(game, std::max(0, depth - 1), -infinity, infinity);
    game.undo(c);
    if (value > best_value) {
      best_value = value;
      best.assign(1, c);
    } else if (value == best_value) {
      best.push_back(c);
    }
  }
  if (!rng) return best.front();
  return best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(*rng)];
}

}  // namespace troupe::games
