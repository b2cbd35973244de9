#include "envs/registry.hpp"

#include <stdexcept>

#include "envs/cartpole.hpp"

namespace troupe::envs {

namespace {
// An environment whose constructor takes no options.
template <class Env>
registry_entry entry(std::string id) {
  return {std::move(id), [](const env_config&) { return std::unique_ptr<env>(new Env()); }};
}
}  // namespace

const std::vector<registry_entry>& registered_envs() {
  static const std::vector<registry_entry> table = {
      entry<cartpole>("CartPole-v1"),
  };
  return table;
}

bool is_registered(const std::string& id) {
  for (const auto& e : registered_envs())
    if (e.id == id) return true;
  return false;
}

std::unique_ptr<env> make_env(const std::string& id) {
  env_config config;
  config.id = id;
  return make_env(config);
}

std::unique_ptr<env> make_env(const env_config& config) {
  const std::string& id = config.id;
  for (const auto& e : registered_envs())
    if (e.id == id) return e.make(config);
  std::string known;
  for (const auto& e : registered_envs()) known += (known.empty() ? "" : ", ") + e.id;
  throw std::invalid_argument("unknown environment '" + id + "' (registered: " + known + ")");
}

}  // namespace troupe::envs
