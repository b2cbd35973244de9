#pragma once
// The coordinator: builds a run from its config (model, model-owner, learner,
// metrics, agents), waits for the first stop condition, and shuts the run down
// so that every collected sample is either trained or counted as dropped.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/frame_hub.hpp"
#include "actors/messages.hpp"
#include "actors/run_config.hpp"
#include "model/net_spec.hpp"

namespace troupe::actors {

struct run_outcome {
  std::string stop_reason;  // solved | env_steps | wall_seconds | interrupted | agent_failures
  double wall_seconds = 0;
  metrics_totals totals;
  batch_stats batching;      // all model-owners together
  learner_final learner;     // all learners together
  // Several devices: each replica's learner (in devices order), and K.
  std::vector<std::string> devices;
  std::vector<learner_final> replicas;
  std::uint64_t replica_max_lag_bound = 0;
  std::int64_t samples_collected = 0;
  std::int64_t samples_dropped = 0;  // agents' and learner's
  std::int64_t parameter_bytes = 0;
  std::string last_checkpoint;
  int agent_restarts = 0;
  std::string last_failure;  // why the last agent failed
  cluster_final cluster;     // troupe serve only
};

// troupe serve: where the gateway listens for workers, and what they get.
struct cluster_listen {
  std::string host;  // empty: no cluster (troupe train)
  std::uint16_t port = 0;
  std::string token;
  tls_files tls;
  std::string worker_config_yaml;  // the resolved config without the token
};

struct run_request {
  run_config config;
  std::string config_yaml;  // the resolved config, stored in checkpoints
  std::string run_dir;      // receives metrics.csv and checkpoints/ (empty: neither)
  std::string resume_from;  // a checkpoint to continue from (empty: a fresh run)
  cluster_listen cluster;
  // When set, told about every agent (and its replacements) and the metrics
  // actor, so viewers can watch the run through it. Its owner stops it.
  frame_hub_actor frame_hub;
};

// Runs one training run (or one resumed segment of it) to its end: the first
// stop condition, or `interrupted` being set. Checkpoints every
// checkpoint.every_seconds and at the end, keeping the newest checkpoint.keep.
run_outcome coordinate(caf::actor_system& sys, const run_request& request,
                       const std::atomic<bool>& interrupted);

// The network a config asks for, sized from its environment's spaces.
model::net_spec net_spec_for(const run_config& config);

// The newest complete checkpoint in a run directory ("" when there is none).
std::string newest_checkpoint(const std::string& run_dir);

}  // namespace troupe::actors
