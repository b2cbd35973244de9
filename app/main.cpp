// troupe: the command line. Each subcommand lives in its own *_command.cpp.
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "actors/config_loader.hpp"
#include "envs/env_error.hpp"

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
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? 0 : exit_usage;
  } catch (const config_error& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const troupe::envs::env_key_error& e) {
    std::cerr << "troupe: error: key '" << e.key << "': " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}
