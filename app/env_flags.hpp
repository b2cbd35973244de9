#pragma once
// What every command that takes an ENV_ID shares (rollout, view, bench envs,
// envs --describe): `--set env.KEY=VALUE`, so that a Python environment gets
// its env.python_path and env.kwargs, a plugin its options, exactly as in a
// run config.
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"

namespace CLI {
class App;
}

namespace troupe::app {

void add_env_set_option(CLI::App& cmd, std::vector<std::string>& overrides);

// The environment `config` describes (read with run::load_env_options);
// a config_error (exit 2) naming the key and the reason when it cannot be made.
std::unique_ptr<envs::env> make_command_env(const envs::env_config& config);

}  // namespace troupe::app
