#include "games/builtin/builtin_games.hpp"

#include "games/builtin/connect_four_env.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "games/builtin/contest_game.hpp"
#include "games/builtin/duel_pong.hpp"
#include "games/builtin/nim_game.hpp"
#include "games/builtin/signal_game.hpp"
#include "games/builtin/spread_game.hpp"

namespace troupe::games {

namespace {
template <class Game>
game_factory turn_based() {
  return [](const envs::env_config&) { return std::unique_ptr<turn_based_env>(new Game()); };
}

template <class Game>
simultaneous_factory simultaneous() {
  return [](const envs::env_config&) { return std::unique_ptr<simultaneous_env>(new Game()); };
}
}  // namespace

std::vector<game_entry> builtin_games() {
  return {
      {connect_four_game::id, turn_based<connect_four_game>(), {},
       // Connect Four's side is a class of its own, which renders the board.
       [](const envs::env_config& config, std::unique_ptr<opponents> others) {
         return std::unique_ptr<envs::env>(new connect_four_env(config.versus.seat, std::move(others)));
       }},
      {duel_pong::id, {}, simultaneous<duel_pong>()},
      {signal_game::id, turn_based<signal_game>()},
      {spread_game::id, {}, simultaneous<spread_game>()},
      {contest_game::id, {}, simultaneous<contest_game>()},
      {nim_game::id, turn_based<nim_game>()},
  };
}

}  // namespace troupe::games
