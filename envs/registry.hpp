#pragma once
// Environments by id. Adding an environment adds one line to the table in
// registry.cpp; nothing else changes.
#include <functional>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"

namespace troupe::envs {

using env_factory = std::function<std::unique_ptr<env>(const env_config&)>;

// An environment that cannot be made as configured, with the config key to
// blame (env.id, env.observe, ...): commands turn it into exit code 2.
struct env_key_error : std::invalid_argument {
  env_key_error(std::string config_key, const std::string& what)
      : std::invalid_argument(what), key(std::move(config_key)) {}
  std::string key;
};

struct registry_entry {
  std::string id;
  env_factory make;
};

const std::vector<registry_entry>& registered_envs();

// Adds an environment at start-up, before any agent runs (a program that
// embeds Troupe, or a test); the table in registry.cpp is the usual place.
void register_env(registry_entry entry);

// Throws std::invalid_argument naming the id and the registered ones.
std::unique_ptr<env> make_env(const env_config& config);
// `count` environments of `config`, to be stepped together (an agent's).
std::unique_ptr<env_vector> make_env_vector(const env_config& config, int count);
std::unique_ptr<env> make_env(const std::string& id);  // with default options
bool is_registered(const std::string& id);

// The spec of the environments `config` makes (made once, to ask).
env_spec spec_of(const env_config& config);

}  // namespace troupe::envs
