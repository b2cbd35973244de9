#pragma once
// The run builder: a run's config in, the actors of one run (or of one
// resumed segment of it) out. One parameter replica per `devices` entry
// (model, learner, model-owner), the metrics actor, the evaluator that
// confirms a solve, and the cluster gateway when the run serves workers.
// Agents are started by the agent supervisor; the coordinator runs the whole.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/cluster/gateway.hpp"
#include "actors/evaluator.hpp"
#include "actors/frames/frame_hub.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "actors/league/selfplay_pool.hpp"
#include "run/run_config.hpp"
#include "agents/random_streams.hpp"
#include "envs/env.hpp"
#include "model/checkpoint.hpp"
#include "model/net_spec.hpp"

#include "algo/learner.hpp"

namespace troupe::actors {

// troupe serve: where the gateway listens for workers, and what they get.
struct cluster_listen {
  std::string host;  // empty: no cluster (troupe train)
  std::uint16_t port = 0;
  std::string token;
  run::tls_files tls;
};

// One policy of a run as it runs (run::plan_policies) and where it keeps
// its files.
struct policy_request {
  std::string name;         // empty: the run's only policy, without policies:
  run::run_config config;   // the policy's own: its model, algo, seat and share of agents
  std::string config_yaml;  // stored in its checkpoints
  std::string run_dir;      // RUN, or RUN/policies/NAME (empty: no files)
  std::string resume_from;  // its checkpoint to continue from (empty: a fresh start)
  // What its agents observe and do: the spaces of the seat it plays.
  envs::env_spec env;
  // Of a game of several agents: the other side's, which its opponents play.
  envs::env_spec other_env;
  int game_agents = 0;  // the agents of that game (0: no game read)
  // With policies:, the game's agents it plays (indices, 0 moves first).
  std::vector<int> agents;
};

struct run_request {
  run::run_config config;
  // The environments' spec when the caller read it already (actors::
  // run::env_spec_for, which names the config key a failure is due to); an empty
  // id: the builder reads it.
  envs::env_spec env;
  std::string config_yaml;  // the resolved config, stored in checkpoints
  std::string run_dir;      // receives metrics.csv and checkpoints/ (empty: neither)
  std::string resume_from;  // a checkpoint to continue from (empty: a fresh run)
  // The policies as planned (troupe train fills them in); empty: the
  // builder plans them from the fields above.
  std::vector<policy_request> policies;
  cluster_listen cluster;
  // When set, told about every agent (and its replacements) and the metrics
  // actor, so viewers can watch the run through it. Its owner stops it.
  frame_hub_actor frame_hub;
};

// The policies of request.config as they run (run::plan_policies): their
// folders in request.run_dir, a population's first hyperparameters drawn
// (agents/league/population.hpp), its seat's spaces, and when `resuming` each one's
// newest checkpoint (the run's own policy: request.resume_from). Throws
// config_error as plan_policies does, or naming a policy's missing or
// damaged checkpoint or a seat its spaces cannot play.
std::vector<policy_request> plan_requests(const run_request& request, bool resuming);
// request.policies when given, else plan_requests(request, whether it resumes).
std::vector<policy_request> policy_requests(const run_request& request);

// One policy's actors: one parameter replica per `devices` entry (model,
// learner, model-owner), its metrics actor, its evaluator and self-play pool.
struct policy_parts {
  policy_request plan;
  model::checkpoint_meta resumed;      // what its earlier segments did (zeros: a fresh start)
  std::uint64_t segment = 0;           // 0, then one more per resume
  agents::run_streams streams{1, 0};
  // Replica d: its parameters, learner, model-owner and learner actor.
  std::vector<std::shared_ptr<model::shared_model>> models;
  std::vector<std::shared_ptr<algo::learner>> trainers;
  std::vector<model_owner_actor> owners;
  std::vector<std::shared_ptr<predict_lane>> lanes;  // owner d's, for this node's agents (null: batching.lane false)
  std::vector<learner_actor> learners;
  metrics_actor metrics;
  evaluator_actor evaluator;       // with run.stop.confirm_episodes > 0 or a best.pt to keep
  std::shared_ptr<best_file_gate> best_gate;  // the evaluator's, closed before the summary reads best.pt
  std::shared_ptr<selfplay_pool> selfplay;  // with selfplay.enabled: the pool and its league
};

struct run_parts {
  envs::env_spec env;                  // the environments' spec, read once (the first policy's)
  std::vector<policy_parts> policies;  // in the config's order (one without policies:)
  cluster_gateway_actor gateway;   // only when serving workers
  caf::actor cluster_door;         // the front door of its port (actors/net/front_door.hpp)

  // Every actor above, told to quit.
  void exit_all(caf::actor_system& sys) const;
};

// Builds and starts everything but the agents. `coordinator` is told when a
// stop condition is met; `start` is when the run began (for its clocks).
// Throws std::invalid_argument (a config that cannot run) or
// std::runtime_error (a port that cannot be listened on, say).
run_parts build_run(caf::actor_system& sys, const run_request& request, run_control coordinator,
                    std::chrono::steady_clock::time_point start);

}  // namespace troupe::actors
