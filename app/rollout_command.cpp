// troupe rollout ENV_ID [--policy random|noop] [--episodes N] [--seed S]
//                [--max-steps N] [--json FILE] [--set env.KEY=VALUE]...
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/env_flags.hpp"
#include "run/config_loader.hpp"
#include "envs/policy_rollout.hpp"

namespace troupe::app {

namespace {

struct rollout_command_options {
  std::string env_id, policy = "random", json_path;
  std::vector<std::string> env_overrides;
  int episodes = 10;
  std::uint64_t seed = 0;
  int max_steps = 100000;
};

nlohmann::ordered_json rollout_json(const rollout_command_options& opts,
                                    const envs::rollout_result& r) {
  return {{"env", opts.env_id},
          {"policy", opts.policy},
          {"episodes", opts.episodes},
          {"seed", opts.seed},
          {"max_steps_per_episode", opts.max_steps},
          {"episodes_cut", r.episodes_cut},
          {"return_mean", r.return_stats.mean},
          {"return_std", r.return_stats.std},
          {"return_min", r.return_stats.min},
          {"return_max", r.return_stats.max},
          {"length_mean", r.length_stats.mean},
          {"length_std", r.length_stats.std},
          {"returns", r.returns},
          {"lengths", r.lengths}};
}

void rollout(const rollout_command_options& opts) {
  envs::rollout_options options;
  try {
    options.policy = envs::parse_fixed_policy(opts.policy);
  } catch (const std::invalid_argument& e) {
    throw config_error(std::string("--policy: ") + e.what());
  }
  options.episodes = opts.episodes;
  options.seed = opts.seed;
  options.max_steps_per_episode = opts.max_steps;
  const auto env = make_command_env(run::load_env_options(opts.env_id, opts.env_overrides));
  const std::string text = rollout_json(opts, envs::run_policy_rollout(*env, options)).dump(2);
  std::cout << text << "\n";
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << text << "\n";
    if (!out) throw config_error("cannot write " + opts.json_path);
  }
}

}  // namespace

void add_rollout_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<rollout_command_options>();
  auto* cmd = cli.add_subcommand(
      "rollout", "run episodes of a fixed policy (random or noop) and print return statistics");
  cmd->add_option("env", opts->env_id, "environment id (see `troupe envs`)")->required();
  cmd->add_option("--policy", opts->policy, "random or noop (action 0 / zeros; with an action mask, among the legal actions: the first for noop)")
      ->capture_default_str();
  cmd->add_option("--episodes", opts->episodes, "number of episodes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opts->seed, "seed of the resets and the random actions")
      ->capture_default_str();
  cmd->add_option("--max-steps", opts->max_steps,
                  "cut an episode after this many steps (for envs with no episode limit)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--json", opts->json_path, "also write the JSON to this file");
  add_env_set_option(*cmd, opts->env_overrides);
  cmd->callback([opts, &exit_code] {
    rollout(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
