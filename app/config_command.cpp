// troupe config --describe | --check FILE
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

void add_config_command(CLI::App& cli, int& exit_code) {
  struct options {
    bool describe = false;
    std::string check_path;
  };
  auto opts = std::make_shared<options>();
  auto* cmd = cli.add_subcommand("config", "describe the config keys or check a config file");
  cmd->add_flag("--describe", opts->describe, "print every config key");
  cmd->add_option("--check", opts->check_path, "validate a config file without training");
  cmd->callback([opts, &exit_code] {
    if (opts->check_path.empty() && !opts->describe)
      throw CLI::ValidationError("config", "give --describe or --check FILE");
    if (!opts->check_path.empty()) {
      run::load_config(opts->check_path);
      std::cout << opts->check_path << ": ok\n";
    }
    if (opts->describe) std::cout << run::describe_config();
    exit_code = 0;
  });
}

}  // namespace troupe::app
