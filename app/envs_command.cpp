// troupe envs: the registered environments and their spaces.
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "envs/registry.hpp"

namespace troupe::app {

void add_envs_command(CLI::App& cli, int& exit_code) {
  auto* cmd = cli.add_subcommand("envs", "list every registered environment");
  cmd->callback([&exit_code] {
    for (const auto& entry : envs::registered_envs()) {
      const auto env = entry.make(envs::env_config{});
      const auto& spec = env->spec();
      std::cout << spec.id << "  observation " << spec.observation.describe() << "  action "
                << spec.action.describe() << "  episode limit "
                << (spec.max_episode_steps ? std::to_string(spec.max_episode_steps) : "none")
                << "\n";
    }
    exit_code = 0;
  });
}

}  // namespace troupe::app
