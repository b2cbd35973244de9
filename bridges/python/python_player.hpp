#pragma once
// A scripted opponent written in Python (python:MODULE:CALLABLE, as
// env.opponent, selfplay.builtin or eval's --opponent): a function of one
// position as its mover sees it, player(observation, action_mask) -> the
// action's index (a Discrete action; its values otherwise), run in a host
// process of its own (bridges/python/troupe_games.py's PlayerHost). A batch of
// positions is one round trip.
#include <memory>
#include <string>

#include "envs/env_config.hpp"
#include "games/opponents.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::env_spec;
using games::opponents;

// Interpreter and path from `config`; `spec` is the game's. Throws
// env_key_error naming `key` when the player cannot be loaded.
std::unique_ptr<opponents> python_player(const env_config& config, const std::string& id, const env_spec& spec,
                                         const std::string& key);

}  // namespace troupe::bridges::python
