#pragma once
// The coordinator: runs one training run (or one resumed segment of it) from
// its request to its outcome. It has the run builder build the replicas,
// metrics, evaluator and gateway, the agent supervisor start the agents,
// checkpoints while it waits for the first stop condition, and shuts the run
// down so that every collected sample is either trained or counted as dropped.
#include <atomic>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/predict.hpp"
#include "actors/run_builder.hpp"
#include "agents/league/league.hpp"
#include "agents/league/population.hpp"
#include "run/stop_reason.hpp"

namespace troupe::actors {

struct run_outcome {
  run::stop_reason stop = run::stop_reason::none;
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
  std::string last_checkpoint;  // the newest written (empty: none in this segment)
  // checkpoints/best.pt, as it is at the end (empty: the run kept none) and
  // its metadata (its score in evaluated_return).
  std::string best_checkpoint;
  model::checkpoint_meta best;
  // Why a checkpoint could not be written (a full disk, say); the run then
  // stops with run::stop_reason::checkpoint_failed. Empty: none failed.
  std::string checkpoint_failure;
  int agent_restarts = 0;
  std::string last_failure;  // why the last agent failed
  cluster_final cluster;     // troupe serve only
  door_counts cluster_door;  // troupe serve only: its port's front door
  stream_final stream;       // --view-port only (the caller fills these in)
  door_counts stream_door;
  bool streamed = false;
  std::optional<agents::league::state> league;  // self-play: the league at the end
  // policies: each policy's own outcome (its name in `policy`, its files in
  // `run_dir`), in the config's order; the fields above are then the run's,
  // its counts added up, its mean return the first policy's. Empty: the
  // run is its one policy.
  std::string policy;
  std::string run_dir;
  std::vector<run_outcome> policies;
  std::optional<agents::pbt_state> pbt;  // pbt: the population at the end
  // Why population-based training's driver stopped the run (a member that
  // did not answer); the run then stops with run::stop_reason::pbt_failed.
  std::string pbt_failure;
};

// Runs to the first stop condition, or until `interrupted` is set.
// Checkpoints every checkpoint.every_seconds and at the end, keeping the
// newest checkpoint.keep.
run_outcome coordinate(caf::actor_system& sys, const run_request& request,
                       const std::atomic<bool>& interrupted);

}  // namespace troupe::actors
