#pragma once
// Parses a command line on `cli` (its subcommands added) and runs the one
// given; returns the process's exit code. Every error is caught here and said
// on stderr: bad input exits with exit_usage, anything else with 1.
namespace CLI {
class App;
}

namespace troupe::app {

int run_command_line(CLI::App& cli, int argc, char** argv, const int& exit_code);

}  // namespace troupe::app
