#pragma once
// One training run from the command line, shared by `troupe train` and
// `troupe serve` (which is a training run that workers may join).
#include <string>
#include <vector>

namespace troupe::app {

struct train_options {
  std::string config_path, run_dir, resume_dir;
  std::vector<std::string> overrides;
  std::string listen;  // troupe serve: HOST:PORT for workers; empty: troupe train
  std::string token;   // troupe serve: --token
};

// Returns the process exit code; throws config_error for bad input.
int run_training(const train_options& opts);

}  // namespace troupe::app
