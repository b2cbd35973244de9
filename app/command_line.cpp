#include "app/command_line.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "envs/env_error.hpp"

namespace troupe::app {

bool reported_bad_input(const std::function<void()>& work) {
  try {
    work();
    return true;
  } catch (const config_error& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
  } catch (const envs::env_key_error& e) {
    std::cerr << "troupe: error: key '" << e.key << "': " << e.what() << "\n";
  }
  return false;
}

int run_command_line(CLI::App& cli, int argc, char** argv, const int& exit_code) {
  try {
    if (!reported_bad_input([&] { cli.parse(argc, argv); })) return exit_usage;
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? 0 : exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}

}  // namespace troupe::app
