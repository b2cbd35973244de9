#pragma once
// The evaluator: plays whole episodes with the current parameters, on its
// own thread. A mean return over the last episodes of training mixes many
// older parameter versions (an episode of CartPole spans hundreds of
// updates); the evaluator says what the policy scores now, so a run stops as
// solved only when its final policy is, and keeps the best policy it has
// seen (RUN/checkpoints/best.pt).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "envs/env_config.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

// (evaluate_atom, episodes, seed, meta): the confirmation of a target,
// while updates wait. Sampled actions, as in training. A mean return of at
// least `target` passes, and freezes the parameters for good: the run is
// over, and its final checkpoint holds what passed. With several replicas,
// `model` is replica 0's (the one checkpoints save) and a pass freezes
// `other_replicas` too.
//
// (best_atom, episodes, seed, meta): the same episodes played by a copy of
// the parameters taken at once, while training goes on.
//
// Either way, the game's other side is played as in training: by the
// config's `rivals` when it names some (the other policies of a run of
// several: each agent by a copy of its policy's parameters taken as the
// evaluation starts, sampling its actions), else by env.opponent.
//
// And either way, parameters that score at least as well as the best so far
// (in this run, resumes included) are written to `best_path` with `meta`
// (its counters; the version and the score are filled in), atomically like
// every checkpoint, and the report says so. An empty `best_path` keeps none.
using evaluator_actor = caf::typed_actor<
    caf::replies_to<evaluate_atom, std::int32_t, std::uint64_t, model::checkpoint_meta>::with<
        evaluation_report>,
    caf::replies_to<best_atom, std::int32_t, std::uint64_t, model::checkpoint_meta>::with<
        evaluation_report>>;

// Whether the evaluator may still write best.pt. The run closes it before
// its summary reads best.pt, so that what the summary names stays what the
// file holds: an evaluation that ends after the close keeps nothing.
struct best_file_gate {
  std::mutex mutex;  // held around each check and write of best.pt
  bool closed = false;
  // Waits for a write under way to finish.
  void close() {
    std::lock_guard<std::mutex> lock(mutex);
    closed = true;
  }
};

// A policy that plays some of the game's agents: its parameters, and the
// agents (indices, 0 moves first).
struct rival_policy {
  std::shared_ptr<model::shared_model> model;
  std::vector<int> agents;
};

struct evaluator_config {
  envs::env_config env;
  double target = 0;      // run.stop.mean_return
  std::string best_path;  // RUN/checkpoints/best.pt, or "" for none
  std::uint64_t segment = 0;  // best.pt's, as every checkpoint of this segment
  std::string config_yaml;
  // The policies that play the other side of env.id's game (env.seat's
  // seat is this policy's); none: env.opponent plays it.
  std::vector<rival_policy> rivals = {};
  std::shared_ptr<best_file_gate> best_gate = std::make_shared<best_file_gate>();
};

evaluator_actor spawn_evaluator(
    caf::actor_system& sys, std::shared_ptr<model::shared_model> model,
    const evaluator_config& config,
    std::vector<std::shared_ptr<model::shared_model>> other_replicas = {});

}  // namespace troupe::actors
