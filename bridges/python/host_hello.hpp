#pragma once
// What a Python host says it made (its hello, JSON; bridges/python/
// troupe_env_host.py): the spaces as Troupe takes them, and for AEC games
// the agents' names.
#include <string>
#include <vector>

#include "envs/env.hpp"

namespace troupe::bridges::python {

using envs::env_spec;

struct host_hello {
  env_spec spec;  // spec.id is the env.id it was made from (a game's: its first agent's spaces)
  bool can_render = false;
  std::vector<std::string> agents;  // games: possible_agents, in order
  std::vector<env_spec> agent_specs;  // games: each agent's spaces, in that order
};

// Throws env_key_error naming env.id when the description cannot be read or
// names a space Troupe cannot take.
host_hello read_hello(const std::string& id, const std::string& hello);

}  // namespace troupe::bridges::python
