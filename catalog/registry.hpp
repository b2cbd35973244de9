#pragma once
// Environments by id. Each family lists its own (envs/classic/classic_envs.hpp,
// envs/minatar/minatar_envs.hpp, envs/mujoco/tasks.hpp,
// envs/examples/example_envs.hpp, games/builtin/builtin_games.hpp): adding an
// environment edits its family's table; nothing else changes. Ids with a prefix name environments
// from outside Troupe (envs/env_id.hpp): python:MODULE:CALLABLE and
// gymnasium:ENV_ID run in Python processes of their own (bridges/python/),
// plugin:PATH.so is a compiled plugin (bridges/plugin/).
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/env_entry.hpp"
#include "envs/env_error.hpp"
#include "envs/env_vector.hpp"
#include "games/builtin/builtin_games.hpp"

namespace troupe::catalog {

using envs::env;
using envs::env_config;
using envs::env_spec;
using envs::env_vector;
using games::simultaneous_env;
using games::turn_based_env;

using envs::env_factory;
using games::game_factory;
using games::simultaneous_factory;

struct registry_entry {
  std::string id;
  env_factory make;
  // A two-player game's own form, for self-play: turn-based
  // (games/turn_based_env.hpp) or simultaneous (games/simultaneous_env.hpp);
  // both empty for single-agent environments.
  game_factory make_game = {};
  simultaneous_factory make_simultaneous = {};
};

const std::vector<registry_entry>& registered_envs();

// Adds an environment at start-up, before any agent runs (a program that
// embeds Troupe, or a test); a family's table is the usual place.
void register_env(registry_entry entry);

// Throws env_key_error (envs/env_error.hpp) naming the key and the reason when
// the environment cannot be made: an unknown id (the message lists the
// registered ones), an environment from outside that fails. An outside
// environment comes as a vector of one seen as an env.
std::unique_ptr<env> make_env(const env_config& config);
// `count` environments of `config`, to be stepped together (an agent's).
std::unique_ptr<env_vector> make_env_vector(const env_config& config, int count);
std::unique_ptr<env> make_env(const std::string& id);  // with default options
bool is_registered(const std::string& id);

// Why `id` cannot be used, or "": a malformed prefixed id, a plugin file that
// does not exist, or an unregistered plain id (the message lists the
// registered ones). Nothing is imported or loaded.
std::string env_id_problem(const std::string& id);

// The spec of the environments `config` makes (made once, to ask).
env_spec spec_of(const env_config& config);

}  // namespace troupe::catalog
