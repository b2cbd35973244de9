#pragma once
// The players of a game's other seats that come with Troupe, without a
// network: a uniformly drawn legal move, Connect Four's alpha-beta, a search
// in copies of a game that can be searched, DuelPong-v0's ball tracker and
// Contest-v0's landmark-splitting team. Each game draws from a stream of its
// own, seeded at its episode's start, so a seed is an episode. Which name
// makes which of them is the catalog's (catalog/players.hpp).
#include <memory>
#include <string>

#include "games/opponents.hpp"

namespace troupe::games {

using envs::env_spec;

// A uniformly drawn legal move (of each component, for several), for
// `games` games of `spec`. Throws std::invalid_argument when its actions
// are not discrete.
std::unique_ptr<opponents> random_player(int games, const env_spec& spec);

// Connect Four's alpha-beta to `depth` (games/builtin/connect_four_alphabeta.hpp),
// reading the board from the observation; ties broken at random.
std::unique_ptr<opponents> alphabeta_player(int games, int depth);

// Alpha-beta to `depth` of a game that is not Connect Four: the games
// search themselves (game_vector::search_moves); `game` names it in
// errors (a game that cannot be searched, or simultaneous moves).
std::unique_ptr<opponents> search_player(int games, int depth, std::string game);

// DuelPong-v0's scripted player: its paddle follows the ball.
std::unique_ptr<opponents> tracking_player();

// Contest-v0's scripted team: each agent takes one of the two landmarks.
std::unique_ptr<opponents> splitting_team();

// `player`, saying `name` to a viewer.
std::unique_ptr<opponents> named_player(std::string name, std::unique_ptr<opponents> player);

}  // namespace troupe::games
