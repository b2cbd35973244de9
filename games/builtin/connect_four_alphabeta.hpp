#pragma once
// A tactical Connect Four opponent (`builtin:alphabeta:DEPTH`): a negamax
// search with alpha-beta pruning to DEPTH plies. A won position scores more
// the sooner it is won (a lost one less the sooner it is lost), a drawn one
// 0; at the search's horizon a position scores by its open windows (four
// cells in a line that hold one player's pieces and empty cells only: three
// pieces weigh more than two) and its centre column. Plain C++.
#include <random>

#include "games/builtin/connect_four.hpp"

namespace troupe::games {

// What a position is worth to the player to move at least this much: a win
// found `n` moves into the game scores win_score - n.
constexpr int win_score = 1000000;

// The position's score for the player to move, searched `depth` plies
// deep (depth 0: the horizon's estimate). `game` is played on and restored.
int alphabeta_score(connect_four& game, int depth);

// The best legal move for the player to move at `depth` (at least 1): ties
// among the best are broken by `rng` when given, else the most central
// wins. Throws std::invalid_argument when the game is over.
int alphabeta_move(connect_four& game, int depth, std::mt19937_64* rng = nullptr);

}  // namespace troupe::games
