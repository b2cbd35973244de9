#pragma once
// The opponents Troupe ships for its two-player games (envs/seat_vector.hpp):
// `random` (a uniformly drawn legal move) and, for Connect Four,
// `alphabeta:DEPTH` (envs/games/connect_four_alphabeta.hpp, DEPTH 1 to 8,
// ties broken at random). Each game draws from a stream of its own, seeded
// at its episode's start, so a seed is an episode.
#include <memory>
#include <string>

#include "envs/seat_vector.hpp"

namespace troupe::envs::games {

// `name` is "random" or "alphabeta:DEPTH"; `games`: how many games it plays
// at once. Throws std::invalid_argument naming `key` and the names it takes.
std::unique_ptr<opponents> builtin_opponents(const std::string& name, int games,
                                             const std::string& key = "env.opponent");

}  // namespace troupe::envs::games
