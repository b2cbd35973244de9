#pragma once
// The built-in games by their env.id, each in its own form for self-play:
// turn-based (games/turn_based_env.hpp) or simultaneous
// (games/simultaneous_env.hpp). Adding a game edits this table alone; the
// catalog (catalog/registry.cpp) makes each one's side an environment too.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "games/opponents.hpp"
#include "games/simultaneous_env.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using game_factory = std::function<std::unique_ptr<turn_based_env>(const envs::env_config&)>;
using simultaneous_factory = std::function<std::unique_ptr<simultaneous_env>(const envs::env_config&)>;
// One seat of a game as an environment of its own class, given the players
// of the other seats; empty where the catalog's generic side does.
using side_env_factory =
    std::function<std::unique_ptr<envs::env>(const envs::env_config&, std::unique_ptr<opponents>)>;

struct game_entry {
  std::string id;
  game_factory make_game = {};  // one of the two forms
  simultaneous_factory make_simultaneous = {};
  side_env_factory make_side_env = {};
};

std::vector<game_entry> builtin_games();

}  // namespace troupe::games
