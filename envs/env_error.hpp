#pragma once
// An environment that cannot be made as configured, with the config key to
// blame: a Python module that does not import or a callable that is missing
// (env.id), a space Troupe cannot take (env.id), an interpreter that does not
// start (env.python), a plugin built for another ABI (env.id), an index out
// of range (env.observe). Thrown where environments are made; the commands
// report it as bad input (exit code 2), naming the key.
#include <stdexcept>
#include <string>

namespace troupe::envs {

struct env_key_error : std::invalid_argument {
  env_key_error(std::string config_key, const std::string& what)
      : std::invalid_argument(what), key(std::move(config_key)) {}
  std::string key;
};

}  // namespace troupe::envs
