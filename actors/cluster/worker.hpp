#pragma once
// A cluster worker (troupe join): joins a learner's run through its gateway,
// receives the run's config from it, and runs agents whose predict requests,
// rollouts and reports all go to the gateway. The agent supervisor replaces
// agents that fail; a lost learner is retried for a while.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include <caf/fwd.hpp>

#include "actors/errors.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

struct worker_options {
  std::string host;
  std::uint16_t port = 0;
  int agents = 2;
  std::string token;
  double retry_seconds = 30;  // keep trying this long while the learner is unreachable
  std::string name;           // in the learner's metrics and logs
  run::tls_files tls;
  // Reads the run config the learner sends (its YAML).
  std::function<run::run_config(const std::string& yaml)> read_config;
};

// The exit code: 0 when the run ended (or on `interrupted`), exit_refused when
// the learner refused this worker, exit_no_env when this worker cannot make
// the run's environment (a Python module or plugin missing here), 1 when the
// learner stayed unreachable or agents failed beyond agents.max_restarts.
constexpr int exit_no_env = 2;
int run_worker(caf::actor_system& sys, const worker_options& options,
               std::atomic<bool>& interrupted);

}  // namespace troupe::actors
