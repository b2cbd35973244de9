// troupe_offline: `troupe eval`, `troupe export` and `troupe play` on their
// own, linked without CAF (its CMake target names no actor library). That it
// links is the check that these commands need no actor system;
// tests/e2e/export_test.cpp also runs its eval on a trained run and compares
// the result with troupe's.
#include <CLI/CLI.hpp>

#include "app/command_line.hpp"
#include "app/commands.hpp"

int main(int argc, char** argv) {
  using namespace troupe::app;
  CLI::App cli{"troupe_offline: troupe's eval, export and play, without CAF"};
  cli.require_subcommand(1);
  int exit_code = 0;
  add_eval_command(cli, exit_code);
  add_export_command(cli, exit_code);
  add_play_command(cli, exit_code);
  return run_command_line(cli, argc, argv, exit_code);
}
