#pragma once
// The five MinAtar games, each given the run's env.minatar options.
#include <vector>

#include "envs/env_entry.hpp"

namespace troupe::envs {

std::vector<env_entry> minatar_envs();

}  // namespace troupe::envs
