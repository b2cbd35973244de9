#include "app/env_flags.hpp"

#include <CLI/CLI.hpp>

#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

void add_env_set_option(CLI::App& cmd, std::vector<std::string>& overrides) {
  cmd.add_option("--set", overrides,
                 "an env.* key, as in a run config: env.python_path=[DIR], "
                 "env.kwargs={render_mode: rgb_array}, ... (the value is YAML)");
}

std::unique_ptr<envs::env> make_command_env(const envs::env_config& config) {
  try {
    return catalog::make_env(config);
  } catch (const envs::env_key_error& e) {
    throw run::config_error("key '" + e.key + "': " + e.what());
  } catch (const std::invalid_argument& e) {
    throw run::config_error(e.what());
  }
}

}  // namespace troupe::app
