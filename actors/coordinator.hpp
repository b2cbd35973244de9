#pragma once
// The coordinator: builds a run from its config (model, model-owner, learner,
// metrics, agents), waits for the first stop condition, and shuts the run down
// so that every collected sample is either trained or counted as dropped.
#include <atomic>
#include <cstdint>
#include <string>

#include "actors/messages.hpp"
#include "actors/run_config.hpp"

namespace troupe::actors {

struct run_outcome {
  std::string stop_reason;  // solved | env_steps | wall_seconds | interrupted
  double wall_seconds = 0;
  metrics_totals totals;
  batch_stats batching;
  learner_final learner;
  std::int64_t samples_collected = 0;
  std::int64_t samples_dropped = 0;  // agents' and learner's
  std::int64_t parameter_bytes = 0;
};

// Runs one training run to its end. `run_dir` receives metrics.csv (empty:
// none). Setting `interrupted` stops the run as a stop condition would.
run_outcome coordinate(caf::actor_system& sys, const run_config& config,
                       const std::string& run_dir, const std::atomic<bool>& interrupted);

}  // namespace troupe::actors
