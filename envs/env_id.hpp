#pragma once
// What an env.id names: an environment compiled into Troupe (the registry's
// table), a Python environment (python:MODULE:CALLABLE or gymnasium:ENV_ID)
// or a compiled plugin (plugin:PATH.so).
#include <string>

namespace troupe::envs {

enum class env_source { registered, python, gymnasium, plugin };

struct env_id_parts {
  env_source source = env_source::registered;
  std::string module;    // python: the module to import (dotted)
  std::string callable;  // python: its attribute that makes an environment (dotted)
  std::string target;    // gymnasium: the id for gymnasium.make; plugin: the file
};

// The parts of `id` by its prefix (no prefix: registered). Throws env_key_error
// when a prefixed id is malformed.
env_id_parts parse_env_id(const std::string& id);

}  // namespace troupe::envs
