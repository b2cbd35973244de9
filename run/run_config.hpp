#pragma once
// A whole training run's configuration: one struct per component, defaults
// here. run/config_loader.hpp reads and validates it from YAML.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "algo/algo_config.hpp"
#include "envs/env_config.hpp"
#include "model/net_spec.hpp"

namespace troupe::run {

struct stop_config {
  double mean_return = 475.0;    // over the last `window` episodes
  int window = 100;
  // > 0: reaching mean_return is confirmed by this many fresh episodes played
  // by the current parameters; the run stops as solved only if they score it too.
  int confirm_episodes = 0;
  std::int64_t env_steps = 0;    // 0: no limit
  double wall_seconds = 0.0;     // 0: no limit
};

struct run_section {
  std::string name = "run";
  std::uint64_t seed = 1;
  stop_config stop;
  // A run is a function of its config and seed (on one machine and build):
  // agents act in rounds, each round trains in agent order (docs/determinism.md).
  bool deterministic = false;
};

struct agents_section {
  int count = 4;
  int max_restarts = 10;  // agents restarted after a failure, per run segment; then the run stops
  bool batch_scheduling = true;  // agent threads under SCHED_BATCH (actors/agent_thread.hpp)
};

struct batching_config {
  int max_batch = 256;
  int max_wait_us = 0;
  // Threads that help the model-owner send replies (actors/reply_courier.hpp);
  // 0: automatic, one per cores_per_reply_thread cores, from 1 to
  // max_reply_threads.
  int reply_threads = 0;
  static constexpr int cores_per_reply_thread = 4, max_reply_threads = 8;
  int reply_threads_here() const;  // reply_threads, or what 0 means on this machine
  // What 0 means, in words, for the help texts that offer it.
  static std::string automatic_reply_threads() {
    return "one per " + std::to_string(cores_per_reply_thread) + " cores, from 1 to " +
           std::to_string(max_reply_threads);
  }
  // The agents of the owner's process ask through its lane
  // (actors/predict_lane.hpp); false: by messages.
  bool lane = true;
};

// Several devices: one parameter replica each (see actors/learner_actor.hpp).
struct replicas_config {
  // K: no replica is ever more than K of another replica's own updates
  // behind it; a replica that would run further ahead waits.
  int max_lag = 4;
};

// The run's best policy, RUN/checkpoints/best.pt: fresh episodes of the
// current parameters are played now and then (at most time_share of the
// run's time), and parameters that score at least as well as every
// evaluation before are kept. A target's confirmation counts as one.
struct best_config {
  int episodes = 100;        // per evaluation; 0: no best.pt
  double time_share = 0.05;  // of the wall time, at most, spent on these evaluations
};

struct checkpoint_config {
  double every_seconds = 30.0;  // 0: only at the end of the run
  int keep = 3;                 // the newest checkpoints kept on disk
  best_config best;
};

struct log_config {
  bool progress = true;
  double progress_seconds = 1.0;
  bool plot = false;  // after the run, draw RUN_DIR/curves.png with scripts/plot.py
  bool tensorboard = true;  // RUN_DIR/tensorboard/: TensorBoard event files of the rows
  // > 0: a row every this many env steps instead of every progress_seconds
  std::int64_t progress_env_steps = 0;
  // The env steps between rows, 0 when rows go by time: a deterministic run's
  // rows go by env steps (a wall-clock row would not be part of its result).
  std::int64_t row_env_steps(bool deterministic) const {
    return progress_env_steps > 0 ? progress_env_steps : deterministic ? 10000 : 0;
  }
};

// TLS for cluster mode: all three PEM files, or none.
struct tls_files {
  std::string certificate, key, ca;
  bool enabled() const { return !certificate.empty(); }
  // Why these files cannot be used together ("" when they can): the one rule,
  // checked by the config loader and by troupe join alike.
  std::string problem() const {
    const int set = !certificate.empty() + !key.empty() + !ca.empty();
    return set == 0 || set == 3 ? "" : "needs all of certificate, key and ca (or none)";
  }
};

// What one port Troupe listens on (the cluster port, the frame stream) lets
// its peers hold; actors/net/front_door.hpp enforces it.
struct connection_limits {
  int max_connections = 64;             // at once
  int max_connections_per_host = 16;    // at once, from one address
  double handshake_timeout_s = 10;      // the peer's handshake must be complete by then
  double idle_timeout_s = 60;           // without a byte, or with a message begun, this long
  std::int64_t max_message_bytes = 64 << 20;  // one message (a BASP frame's payload)
};

struct cluster_config {
  std::string token;  // empty: from the command line, the environment, or generated
  tls_files tls;
  connection_limits limits;
};

// selfplay: the learning policy plays a two-player game (envs/
// turn_based_env.hpp) against itself and its frozen snapshots
// (agents/league/league.hpp; docs/multiagent.md).
struct selfplay_config {
  bool enabled = false;
  int snapshot_every_updates = 50;  // a snapshot joins the pool every this many updates
  int pool_size = 8;                // snapshots kept, oldest out first
  std::vector<std::string> builtin = {};  // built-in players beside the snapshots (random, alphabeta:N)
  double builtin_probability = 0.0;      // the share of episodes against them
  double latest_probability = 0.5;  // of the others: against the learning policy itself
  std::string sampling = "uniform"; // uniform | pfsp (the snapshots the learner beats least, most)
  double elo_k = 16;
  envs::opening_options random_opening;  // turn-based games' training episodes
};

// pbt: one hyperparameter a population explores (algo/hyperparameters.hpp
// lists the keys that can change during a run).
struct hyperparam_range {
  double min = 0, max = 0;
  bool log = false;               // scale: log (draws and perturbations uniform in log) or linear
  double init_lo = 0, init_hi = 0;  // where members start, drawn on the scale (default [min, max])
};

// pbt: population-based training (docs/pbt.md): `population` members, each
// a policy of its own, exploit and explore every interval_env_steps.
struct pbt_config {
  int population = 0;  // 0: no population-based training; else at least 2 members
  std::int64_t interval_env_steps = 20000;  // a member's env steps between its decisions
  double truncation = 0.25;  // the bottom fraction copies from the top fraction
  std::vector<double> perturb = {0.8, 1.2};  // explore: a value times one of these, drawn
  double resample_probability = 0.25;        // explore: a value drawn afresh from its range instead
  std::string objective = "mean_return";     // what ranks the members
  std::map<std::string, hyperparam_range> hyperparams;
  bool enabled() const { return population > 0; }
};

// policies: one named policy of a run (docs/multiagent.md): its own
// model-owner, learner, optimiser state, normalisers, metrics and
// checkpoints (RUN/policies/NAME/), playing the game's agents it names.
struct policy_config {
  std::string name;
  // The game's agent ids it plays ("player_0"), or patterns with * ("player_*").
  std::vector<std::string> agents;
  // The run's model and algo sections with the policy's own keys over them.
  model::model_config model;
  algo::algo_config algo;
};

struct run_config {
  run_section run;
  envs::env_config env;
  model::normalize_config normalize;  // its keys are env.normalize.*
  agents_section agents;
  algo::algo_config algo;
  model::model_config model;
  batching_config batching;
  std::vector<std::string> devices = {"cpu"};
  replicas_config replicas;
  checkpoint_config checkpoint;
  log_config log;
  cluster_config cluster;
  selfplay_config selfplay;
  pbt_config pbt;
  // Empty: one policy, the run's own model and algo, in the run directory
  // itself (no policies/ folder).
  std::vector<policy_config> policies;
};

}  // namespace troupe::run
