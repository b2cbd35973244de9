#pragma once
// Short labels for an environment's discrete actions ("left", "fire"), for
// viewers' panels; empty where none are known (the panel then numbers them).
#include <string>
#include <vector>

#include "envs/env.hpp"

namespace troupe::envs {

std::vector<std::string> action_labels(const env& e);

}  // namespace troupe::envs
