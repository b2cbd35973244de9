// troupe config --describe | --check FILE...
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

namespace {

// One file checked: "FILE: ok" on stdout, or its error on stderr as a
// command that stopped at it would print it. False when it is refused.
bool check_one(const std::string& path) {
  if (!reported_bad_input([&] { run::load_config(path); })) return false;
  std::cout << path << ": ok\n";
  return true;
}

}  // namespace

void add_config_command(CLI::App& cli, int& exit_code) {
  struct options {
    bool describe = false;
    std::vector<std::string> check_paths;
  };
  auto opts = std::make_shared<options>();
  auto* cmd = cli.add_subcommand("config", "describe the config keys or check config files");
  cmd->add_flag("--describe", opts->describe, "print every config key");
  cmd->add_option("--check", opts->check_paths,
                  "validate config files without training: each one's error, then exit code 2 if any was refused");
  cmd->callback([opts, &exit_code] {
    if (opts->check_paths.empty() && !opts->describe)
      throw CLI::ValidationError("config", "give --describe or --check FILE...");
    bool all_ok = true;
    for (const auto& path : opts->check_paths) all_ok = check_one(path) && all_ok;
    if (opts->describe) std::cout << run::describe_config();
    exit_code = all_ok ? 0 : exit_usage;
  });
}

}  // namespace troupe::app
