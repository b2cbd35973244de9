#pragma once
// One training run from the command line, shared by `troupe train` and
// `troupe serve` (which is a training run that workers may join).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/window_flags.hpp"

namespace troupe::app {

struct train_options {
  std::string config_path, run_dir, resume_dir;
  std::vector<std::string> overrides;
  std::string listen;  // troupe serve: HOST:PORT for workers; empty: troupe train
  std::string token;   // troupe serve: --token
  // Watching (troupe train): a window, and/or the frames published for
  // `troupe view --connect`.
  bool view = false;          // a window onto one agent's environment
  double view_fps = 30.0;     // frames the window asks for per second, at speed x1
  window_flags window;
  int view_port = -1;         // >= 0: publish the frames on this port (0: any free one)
  std::string view_bind = "127.0.0.1";
  std::string view_token;     // what viewers must present (else the cluster token, ...)
};

// Returns the process exit code; throws config_error for bad input.
int run_training(const train_options& opts);

// --view, --view-port and the window's flags, for train and serve alike.
void add_watch_options(CLI::App& cmd, train_options& opts);

}  // namespace troupe::app
