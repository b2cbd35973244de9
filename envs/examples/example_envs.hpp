#pragma once
// The example environments (Example/...-v0), each a small task that checks
// one thing a network or a space must handle, in the order `troupe envs`
// lists them.
#include <vector>

#include "envs/env_entry.hpp"

namespace troupe::envs::examples {

std::vector<env_entry> example_envs();

}  // namespace troupe::envs::examples
