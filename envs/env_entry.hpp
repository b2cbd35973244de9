#pragma once
// An environment by its env.id, as its family lists it. Each family
// (classic/, minatar/, mujoco/, examples/) keeps its own table, so adding an
// environment edits that family's file alone; the catalog
// (catalog/registry.cpp) gathers the families into the table of every id.
#include <functional>
#include <memory>
#include <string>

#include "envs/env.hpp"
#include "envs/env_config.hpp"

namespace troupe::envs {

using env_factory = std::function<std::unique_ptr<env>(const env_config&)>;

struct env_entry {
  std::string id;
  env_factory make;
};

// An environment whose constructor takes no options.
template <class Env>
env_entry entry_without_options(std::string id) {
  return {std::move(id), [](const env_config&) { return std::unique_ptr<env>(new Env()); }};
}

}  // namespace troupe::envs
