#pragma once
// The subcommands of `troupe`. Each add_*_command registers its subcommand on
// `cli`; when parsed, the subcommand runs and stores its exit code in
// `exit_code`. Config and input errors are thrown as config_error (exit 2).
#include <functional>

namespace CLI {
class App;
}

#include "run/config_loader.hpp"

namespace troupe::app {

constexpr int exit_usage = 2;  // bad config, flag or file
using run::config_error;    // thrown for bad input: exit_usage

// Runs `work`; bad input it throws (config_error, envs::env_key_error) is
// printed as "troupe: error: ..." and false returned. Anything else goes on.
bool reported_bad_input(const std::function<void()>& work);

void add_train_command(CLI::App& cli, int& exit_code);
void add_eval_command(CLI::App& cli, int& exit_code);
void add_export_command(CLI::App& cli, int& exit_code);
void add_config_command(CLI::App& cli, int& exit_code);
void add_envs_command(CLI::App& cli, int& exit_code);
void add_view_command(CLI::App& cli, int& exit_code);
void add_play_command(CLI::App& cli, int& exit_code);
void add_rollout_command(CLI::App& cli, int& exit_code);
void add_serve_command(CLI::App& cli, int& exit_code);
void add_join_command(CLI::App& cli, int& exit_code);

// The `bench` subcommand, created on first use: each `bench X` adds itself to
// it from its own file (bench envs: app/bench_envs_command.cpp).
CLI::App* bench_command(CLI::App& cli);
void add_bench_envs_command(CLI::App& cli, int& exit_code);
void add_bench_inference_command(CLI::App& cli, int& exit_code);
void add_bench_learner_command(CLI::App& cli, int& exit_code);

}  // namespace troupe::app
