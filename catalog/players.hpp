#pragma once
// The players a game's other seats can be played by without a network, by
// name (env.opponent, selfplay.builtin, eval --opponent): `random` (a
// uniformly drawn legal move, any game); `alphabeta:DEPTH` (DEPTH 1 to 8,
// ties broken at random): for Connect Four its own search, for a Python AEC
// game a search of the mover's rewards in copies of the game
// (game_vector::search_moves); for DuelPong-v0 `track` (its paddle
// follows the ball); for Contest-v0 `split` (a team whose two agents take a
// landmark each); and a scripted player written in Python,
// `python:MODULE:CALLABLE` (bridges/python/python_player.hpp). The players
// themselves are games/builtin/builtin_players.hpp's.
#include <memory>
#include <string>

#include "envs/env_config.hpp"
#include "games/opponents.hpp"

namespace troupe::catalog {

// Throws std::invalid_argument naming `key` when `name` is no opponent for
// the game `game` (nothing is started: a Python player's module is
// looked for when it is made).
void check_opponent_name(const std::string& name, const envs::env_id& game, const std::string& key);

// Whether player `name` of game `game_id` searches the games' own state
// (alphabeta of a Python game), where every other reads the observation.
bool searches_games(const std::string& name, const std::string& game_id);

// `name` as check_opponent_name takes it, for `count` games at once of the
// game `spec` describes (`env`: a Python player's interpreter and path).
// Throws std::invalid_argument or env_key_error naming `key`.
std::unique_ptr<games::opponents> builtin_opponents(const std::string& name, int count, const envs::env_config& env,
                                                    const envs::env_spec& spec, const std::string& key);

}  // namespace troupe::catalog
