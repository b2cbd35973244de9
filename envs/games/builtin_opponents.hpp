#pragma once
// The opponents a two-player game (envs/seat_vector.hpp) can be played
// against without a network: `random` (a uniformly drawn legal move, any
// game); `alphabeta:DEPTH` (DEPTH 1 to 8, ties broken at random): for
// Connect Four envs/games/connect_four_alphabeta.hpp, for a Python AEC game
// a search of the mover's rewards in copies of the game
// (turn_based_vector::search_moves); for DuelPong-v0 `track` (its paddle
// follows the ball); for Contest-v0 `split` (a team whose two agents take
// a landmark each); and a scripted player written in Python,
// `python:MODULE:CALLABLE`
// (envs/python/python_player.hpp). Each game draws from a stream of its own,
// seeded at its episode's start, so a seed is an episode.
#include <memory>
#include <string>

#include "envs/env_config.hpp"
#include "envs/seat_vector.hpp"

namespace troupe::envs::games {

// Throws std::invalid_argument naming `key` when `name` is no opponent for
// the game `game_id` (nothing is started: a Python player's module is
// looked for when it is made).
void check_opponent_name(const std::string& name, const std::string& game_id, const std::string& key);

// Whether player `name` of game `game_id` searches the games' own state
// (alphabeta of a Python game), where every other reads the observation.
bool searches_games(const std::string& name, const std::string& game_id);

// `name` as check_opponent_name takes it, for `games` games at once of the
// game `spec` describes (`env`: a Python player's interpreter and path).
// Throws std::invalid_argument or env_key_error naming `key`.
std::unique_ptr<opponents> builtin_opponents(const std::string& name, int games, const env_config& env,
                                             const env_spec& spec, const std::string& key);

}  // namespace troupe::envs::games
