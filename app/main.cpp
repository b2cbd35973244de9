// troupe: the command line. Each subcommand lives in its own *_command.cpp.
#include <CLI/CLI.hpp>

#include "app/command_line.hpp"
#include "app/commands.hpp"

int main(int argc, char** argv) {
  using namespace troupe::app;
  CLI::App cli{"troupe: actor-model A3C training"};
  cli.require_subcommand(1);
  int exit_code = 0;
  add_train_command(cli, exit_code);
  add_eval_command(cli, exit_code);
  add_export_command(cli, exit_code);
  add_config_command(cli, exit_code);
  add_envs_command(cli, exit_code);
  add_view_command(cli, exit_code);
  add_play_command(cli, exit_code);
  add_rollout_command(cli, exit_code);
  add_serve_command(cli, exit_code);
  add_join_command(cli, exit_code);
  add_bench_envs_command(cli, exit_code);
  add_bench_inference_command(cli, exit_code);
  add_bench_learner_command(cli, exit_code);
  return run_command_line(cli, argc, argv, exit_code);
}
