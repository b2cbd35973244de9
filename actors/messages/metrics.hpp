#pragma once
// The metrics actor's and the evaluator's protocol (actors/metrics_actor.hpp,
// actors/evaluator.hpp): agents' episode reports, evaluations, stop requests
// and the run's totals.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/messages/atoms.hpp"
#include "actors/messages/type_id_ranges.hpp"
#include "run/stop_reason.hpp"

namespace troupe::actors {

// An agent's progress since its last report.
struct episode_report {
  std::uint32_t agent_id = 0;
  std::int64_t env_steps = 0;
  std::vector<float> returns;       // one per finished episode
  std::vector<std::int32_t> lengths;
  double predict_seconds = 0;       // round trips of this report's predict requests
  std::int32_t predicts = 0;
  std::string node;                 // set by the cluster gateway; empty: the learner's node
  // The sequence of the rollout it came with (at a stop: of the one under
  // way): a deterministic run counts reports in (rollout, agent) order.
  std::uint64_t rollout = 0;
};

// One node's share of a run, for the per-node metrics.
struct node_stats {
  std::string node;
  std::int32_t agents = 0;
  std::int64_t env_steps = 0;
  double env_steps_per_s = 0;          // over the last progress period
  double predict_round_trip_ms = 0;    // mean over the run
};

// What the metrics actor knows at the end of a run.
struct metrics_totals {
  std::int64_t env_steps = 0;
  std::int64_t episodes = 0;
  double final_mean_return = 0.0;  // last 100 episodes (or fewer if fewer ran)
  bool solved = false;
  double seconds_to_target = -1.0;  // < 0: not reached
  std::int64_t env_steps_to_target = -1;
  // The window's mean when it reached the target: where the stop began.
  // With run.stop.confirm_episodes training goes on while the evaluator
  // plays, so the window at the stop (final_mean_return) may have moved.
  double mean_return_at_target = 0.0;
  std::int64_t updates = 0;
  std::int64_t samples_trained = 0;
  double mean_policy_lag = 0.0;
  std::uint64_t max_policy_lag = 0;
  // run.stop.confirm_episodes: evaluations run, and the last one's mean.
  std::int32_t confirmations = 0;
  double confirmed_return = 0.0;
  std::uint64_t confirmed_version = 0;
  std::int32_t best_evaluations = 0;  // checkpoint.best: evaluations run (confirmations aside)
  std::vector<node_stats> nodes;  // the learner's node first
  std::int64_t foreign_refused = 0;  // messages from outside this process, refused
  // Several policies or members: every one's env steps together when this
  // one reached its target (-1: not reached).
  std::int64_t run_env_steps_to_target = -1;
};

struct stop_request {
  run::stop_reason reason = run::stop_reason::none;
};

// What one parameter version scored over whole episodes.
struct evaluation_report {
  std::uint64_t version = 0;
  std::int32_t episodes = 0;
  double return_mean = 0.0;
  bool passed = false;  // reached the target; the parameters are frozen
  bool best = false;    // scored at least as well as any before: now the run's best.pt
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, episode_report& x) {
  return f(caf::meta::type_name("episode_report"), x.agent_id, x.env_steps, x.returns,
           x.lengths, x.predict_seconds, x.predicts, x.node, x.rollout);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, node_stats& x) {
  return f(caf::meta::type_name("node_stats"), x.node, x.agents, x.env_steps,
           x.env_steps_per_s, x.predict_round_trip_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, metrics_totals& x) {
  return f(caf::meta::type_name("metrics_totals"), x.env_steps, x.episodes,
           x.final_mean_return, x.solved, x.seconds_to_target, x.env_steps_to_target,
           x.updates, x.samples_trained, x.mean_policy_lag, x.max_policy_lag, x.confirmations,
           x.confirmed_return, x.confirmed_version, x.best_evaluations, x.nodes,
           x.foreign_refused, x.run_env_steps_to_target, x.mean_return_at_target);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, stop_request& x) {
  return f(caf::meta::type_name("stop_request"), x.reason);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, evaluation_report& x) {
  return f(caf::meta::type_name("evaluation_report"), x.version, x.episodes, x.return_mean,
           x.passed, x.best);
}

}  // namespace troupe::actors

CAF_BEGIN_TYPE_ID_BLOCK(troupe_metrics, troupe::actors::type_id_ranges::metrics)
  CAF_ADD_TYPE_ID(troupe_metrics, (troupe::actors::episode_report))
  CAF_ADD_TYPE_ID(troupe_metrics, (troupe::actors::node_stats))
  CAF_ADD_TYPE_ID(troupe_metrics, (troupe::actors::metrics_totals))
  CAF_ADD_TYPE_ID(troupe_metrics, (troupe::actors::stop_request))
  CAF_ADD_TYPE_ID(troupe_metrics, (troupe::actors::evaluation_report))
CAF_END_TYPE_ID_BLOCK(troupe_metrics)
