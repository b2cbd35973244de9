#pragma once
// Environments by id. Adding an environment adds one line to the table in
// registry.cpp; nothing else changes. Ids with a prefix name environments
// from outside Troupe (envs/env_id.hpp): python:MODULE:CALLABLE and
// gymnasium:ENV_ID run in Python processes of their own (envs/python/),
// plugin:PATH.so is a compiled plugin (envs/plugin/).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/env_error.hpp"
#include "envs/env_vector.hpp"
#include "envs/turn_based_env.hpp"

namespace troupe::envs {

using env_factory = std::function<std::unique_ptr<env>(const env_config&)>;

using game_factory = std::function<std::unique_ptr<turn_based_env>(const env_config&)>;

struct registry_entry {
  std::string id;
  env_factory make;
  // A two-player game's own form (envs/turn_based_env.hpp), for self-play;
  // empty for single-agent environments.
  game_factory make_game = {};
};

const std::vector<registry_entry>& registered_envs();

// Adds an environment at start-up, before any agent runs (a program that
// embeds Troupe, or a test); the table in registry.cpp is the usual place.
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

// Whether `id` is a registered turn-based game, and those there are ("A, B").
bool is_turn_based_game(const std::string& id);
std::string turn_based_games();
// `config`'s game in its turn-based form; throws env_key_error naming env.id
// when it has none.
std::unique_ptr<turn_based_env> make_turn_based_env(const env_config& config);

// The spec of the environments `config` makes (made once, to ask).
env_spec spec_of(const env_config& config);

}  // namespace troupe::envs
