#pragma once
#include <string>

namespace troupe::envs {

// The `env` section of a run config.
struct env_config {
  std::string id = "CartPole-v1";
  int envs_per_agent = 8;
};

}  // namespace troupe::envs
