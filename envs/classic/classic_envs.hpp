#pragma once
// The classic-control environments, in the order `troupe envs` lists them.
#include <vector>

#include "envs/env_entry.hpp"

namespace troupe::envs {

std::vector<env_entry> classic_envs();

}  // namespace troupe::envs
