// troupe envs: the registered environments and their spaces.
// troupe envs --describe ENV_ID [--set env.KEY=VALUE]...: one environment's,
// any id a run config takes (a Python environment or a plugin too).
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/env_flags.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/mujoco/tasks.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

namespace {

void print_spec(const envs::env_spec& spec) {
  std::cout << spec.id << "  observation " << spec.observation.describe() << "  action "
            << spec.action.describe() << "  episode limit "
            << (spec.max_episode_steps ? std::to_string(spec.max_episode_steps) : "none");
  if (spec.has_action_mask)
    std::cout << "  action mask "
              << (spec.observation_mask_key.empty() ? std::string("yes")
                                                    : "in observation['" + spec.observation_mask_key + "']");
}

// A game's agents, each with its own spaces.
void print_agents(const catalog::game_agents& agents) {
  for (size_t a = 0; a < agents.names.size(); ++a) {
    const envs::env_spec& s = agents.specs[a];
    const std::string seat = games::seat_name(int(a)) + " seat";
    std::cout << "\n  agent " << agents.names[a] << " (" << seat << "): observation "
              << s.observation.describe() << "  action " << s.action.describe()
              << (s.has_action_mask ? "  action mask yes" : "");
  }
}

}  // namespace

void add_envs_command(CLI::App& cli, int& exit_code) {
  struct options {
    std::string describe;
    std::vector<std::string> overrides;
  };
  auto opts = std::make_shared<options>();
  auto* cmd = cli.add_subcommand("envs", "list every registered environment, or describe one");
  cmd->add_option("--describe", opts->describe,
                  "only this environment: a registered id, python:MODULE:CALLABLE, "
                  "gymnasium:ENV_ID or plugin:PATH.so");
  add_env_set_option(*cmd, opts->overrides);
  cmd->callback([opts, &exit_code] {
    if (!opts->describe.empty()) {
      const auto env = make_command_env(run::load_env_options(opts->describe, opts->overrides));
      print_spec(env->spec());
      std::cout << "  renders " << (envs::drawable(*env) ? "yes" : "no") << "\n";
      const auto& labels = env->spec().action_labels;
      for (size_t a = 0; a < labels.size(); ++a)
        std::cout << (a == 0 ? "actions: " : ", ") << a << " " << labels[a]
                  << (a + 1 == labels.size() ? "\n" : "");
      if (const auto* task = envs::mujoco::find_task(opts->describe)) {
        std::cout << "keyword arguments (Gymnasium v4's, with its defaults)"
                  << (task->kwargs.empty() ? ": none\n" : ":\n") << envs::mujoco::describe(task->kwargs);
      }
    } else {
      if (!opts->overrides.empty()) throw config_error("envs: --set needs --describe ENV_ID");
      for (const auto& entry : catalog::registered_envs()) {
        envs::env_config config;
        config.id = entry.id;
        if (entry.make_game || entry.make_simultaneous) {  // its agents' spaces may differ
          const catalog::game_agents agents = catalog::game_agents_of(config);
          print_spec(agents.specs.front());
          print_agents(agents);
        } else {
          print_spec(entry.make(config)->spec());
        }
        std::cout << "\n";
      }
    }
    exit_code = 0;
  });
}

}  // namespace troupe::app
