#pragma once
// Every atom and message struct the actors exchange, in one type-ID block
// (the actor handles that travel inside messages get theirs after their
// protocols, in actors/handle_types.hpp).
// Each actor's protocol (which of these it accepts and answers) is the
// typed-actor alias in its own header.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/byte_vector_field.hpp"
#include "run/stop_reason.hpp"
#include "algo/learned_state.hpp"
#include "algo/trainer.hpp"
#include "algo/rollout.hpp"
#include "envs/render.hpp"
#include "model/checkpoint.hpp"
#include "viewer/overlay_info.hpp"  // a plain struct: no SDL, nothing to link

namespace troupe::actors {

// An agent's observations for all of its environments, one row each.
struct predict_request {
  std::uint32_t agent_id = 0;
  std::int32_t rows = 0;
  std::vector<float> observations;
  // A recurrent policy's state of each row before its observation (rows x
  // state_size: zeros at an episode's start); empty for a feed-forward one.
  std::vector<float> states;
  // A row whose policy outputs the reply should carry (a viewer is watching
  // it); -1: none, the usual case.
  std::int32_t policy_row = -1;
  // Each row's legal actions (rows x the action count; algo/action_mask.hpp):
  // the owner samples among them only. Empty: every action is legal.
  std::vector<std::uint8_t> action_masks;
};

struct predict_reply {
  std::vector<float> actions;  // per row: a discrete action's index, or a Box action's floats
  std::vector<float> logp;     // log-probability of each action
  std::vector<float> values;   // V of each row's observation
  std::uint64_t version = 0;   // the parameter version every row was computed with
  std::vector<float> states;   // each row's recurrent state after its observation; else empty
  // The request's policy_row: its logits, or its Gaussian mean then log-std;
  // empty when none was asked for.
  std::vector<float> row_policy;
};

// The learner's answer to a rollout: it has been trained (or dropped).
struct train_ack {
  std::uint64_t sequence = 0;
  bool trained = false;
};

// One parameter replica's update, sent to every other replica (see
// actors/learner_actor.hpp): the change it made to every parameter,
// flattened. The answer is the receiver's version after adding it.
struct replica_update {
  std::uint32_t origin = 0;    // the replica whose own update this is
  std::uint64_t sequence = 0;  // its number among the origin's own updates: 1, 2, ...
  std::vector<float> delta;
};

// Population-based training's decision for one member's learner (actors/
// pbt_driver.hpp): adopt `state`, member `source`'s learned state as its
// learner answered a snapshot_atom (source -1: no copy, `state` empty),
// then set each key's value (algo/hyperparameters.hpp). The answer is the
// learner's parameter version after it.
struct pbt_step {
  std::int32_t source = -1;
  algo::learned_state state;
  std::vector<std::string> keys;
  std::vector<double> values;
};

// What the population-based training driver answers its stop with: the
// population's state (RUN/pbt.json's text) and why the driver failed (empty:
// it did not).
struct pbt_final {
  std::string state_json;
  std::string failure;
};

// Population-based training: a member's hyperparameters as they are now,
// sent by the driver to the member's metrics actor, which shows them in
// every row it writes (TensorBoard's hyperparams/KEY).
struct member_hyperparams {
  std::vector<std::string> keys;
  std::vector<double> values;
};

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

// Cluster mode: a worker asks to join the learner's run.
struct join_request {
  std::int32_t protocol = 0;  // cluster_protocol_version
  std::string token;
  std::string name;           // the worker's name, for logs and metrics
  std::int32_t agents = 0;
};

// The learner's answer: the worker's agent ids, first_agent_id ..
// first_agent_id + agents - 1, and what each of them plays for. Agent i
// plays for policy agent_policies[i] (a policy of policies:, a population's
// member, or the run's one policy: 0), made from that policy's config
// (policy_configs, the one place it lives, without the cluster's secrets);
// with policy_remote_opponents[p] its two-player games' other seat is
// played on the learner's node (self-play's league, the other policy), asked
// for with opponent requests.
struct join_reply {
  std::uint32_t first_agent_id = 0;
  std::uint64_t seed = 0;
  std::vector<std::int32_t> agent_policies;
  std::vector<std::string> policy_configs;
  std::vector<std::uint8_t> policy_remote_opponents;
};

// Cluster mode: a worker's agent asks the learner's node to move for the
// other seat of its games (actors/cluster/remote_opponents.hpp). First the
// episodes that began or ended since its last request, in order (game
// event_games[k] began with seed event_seeds[k] when event_ended[k] is 0,
// else ended with the learning seat's return event_returns[k]), then the
// moves: row r is game games[r]'s position as its mover, agent agents[r],
// sees it. The answer: rows x the action's floats.
struct opponent_request {
  std::uint32_t agent_id = 0;
  std::vector<std::int32_t> event_games;
  std::vector<std::uint8_t> event_ended;
  std::vector<std::uint64_t> event_seeds;
  std::vector<double> event_returns;
  std::vector<std::int32_t> games;
  std::vector<std::int32_t> agents;  // one a row (0 moves first): who plays it may differ by agent
  std::vector<float> observations;
  std::vector<std::uint8_t> action_masks;  // rows x the action's choices, or empty
};

struct opponent_reply {
  std::vector<float> actions;
  // Games begun in this request's events whose drawn player searches the
  // game's own state (a Python game's alphabeta:N): the worker, which holds
  // the games, plays them itself, player local_players[k] seeded
  // local_seeds[k] for game local_games[k]; their rows' actions here are 0.
  std::vector<std::int32_t> local_games;
  std::vector<std::string> local_players;
  std::vector<std::uint64_t> local_seeds;
  // For a viewer: who plays the watched game's other seat, and its policy's
  // outputs at its last move there (envs::other_seat_view).
  std::string watched_who;
  std::vector<float> watched_policy;
};

// What the gateway saw over a run.
struct cluster_final {
  std::int32_t workers_joined = 0;
  std::int32_t workers_refused = 0;
  std::int64_t messages_rejected = 0;  // malformed, replayed, or from unknown senders
  // Never queued: not its protocol, from a sender it cannot trust
  // (actors/net/network_facing.hpp).
  std::int64_t dropped_at_door = 0;
  std::int64_t predicts_relayed = 0;
  std::int64_t rollouts_relayed = 0;
  std::int64_t opponent_moves = 0;  // the other seat's moves made here for workers' games
};

// What a front door (actors/net/front_door.hpp) saw over a run.
struct door_counts {
  std::int64_t accepted = 0;
  std::int64_t refused = 0;     // over cluster.max_connections or max_connections_per_host
  std::int64_t timed_out = 0;   // no handshake, silent, or a frame left incomplete
  std::int64_t bad_frames = 0;  // too large, routed, unknown operation
};

// What a frame stream's gate saw over a run (actors/frames/frame_stream.hpp).
struct stream_final {
  std::int32_t viewers_admitted = 0;
  std::int32_t viewers_refused = 0;   // a wrong or missing token
  std::int64_t requests_refused = 0;  // frames asked for by a node without the token
  std::int64_t dropped_at_door = 0;
};

struct batch_stats {
  std::int64_t forward_passes = 0;
  std::int64_t requests = 0;
  std::int64_t observations = 0;
  std::int32_t largest_batch = 0;
  // Forward passes by batch size: bucket b counts sizes in (2^(b-1), 2^b],
  // so bucket 0 is size 1, bucket 1 size 2, bucket 2 sizes 3-4, ...
  std::vector<std::int64_t> size_histogram;
  double forward_seconds = 0;  // in forward passes
  double reply_seconds = 0;    // sampling actions and answering requests
  // Messages refused because their sender was not an actor of this process
  // (only a leaked handle could bring one: see actors/net/network_facing.hpp).
  std::int64_t foreign_refused = 0;

  // Another model-owner's statistics added to these.
  void merge(const batch_stats& other) {
    forward_passes += other.forward_passes;
    requests += other.requests;
    observations += other.observations;
    largest_batch = std::max(largest_batch, other.largest_batch);
    if (size_histogram.size() < other.size_histogram.size())
      size_histogram.resize(other.size_histogram.size(), 0);
    for (size_t b = 0; b < other.size_histogram.size(); ++b) size_histogram[b] += other.size_histogram[b];
    forward_seconds += other.forward_seconds;
    reply_seconds += other.reply_seconds;
    foreign_refused += other.foreign_refused;
  }

  void add_batch(int rows) {
    ++forward_passes;
    observations += rows;
    largest_batch = std::max(largest_batch, std::int32_t(rows));
    size_t bucket = 0;
    while ((std::int64_t{1} << bucket) < rows) ++bucket;
    if (size_histogram.size() <= bucket) size_histogram.resize(bucket + 1, 0);
    ++size_histogram[bucket];
  }
};

struct agent_final {
  std::uint32_t agent_id = 0;
  std::int64_t samples_collected = 0;
  std::int64_t samples_dropped = 0;  // a partial rollout at stop, or lost sends
  std::uint64_t rollouts_sent = 0;
};

struct learner_final {
  std::int64_t samples_trained = 0;
  std::int64_t samples_dropped = 0;  // rollouts rejected as malformed, stale, or left untrained
  std::int64_t samples_stale = 0;    // of those: older than algo.max_policy_lag
  std::int64_t acks_held = 0;        // acknowledgements held back by the collection budget
  std::int64_t updates = 0;
  std::int64_t updates_skipped = 0;  // non-finite loss or gradient
  std::int64_t updates_refused = 0;  // batches refused: a confirmed solve froze the parameters
  std::int64_t batches = 0;          // batches trained (A3C: rollouts, unless algo.batch_rollouts > 1)
  double train_seconds = 0;          // busy training
  // Several replicas (devices): this replica's parameter version at the
  // end, the other replicas' updates it applied, and the most of its own
  // updates any other replica was missing when it applied one (<= max_lag).
  std::uint64_t version = 0;
  std::int64_t peer_updates = 0;
  std::uint64_t max_replica_lag = 0;
  // Refused for their sender: messages from outside this process, and
  // replica updates from any actor but a peer replica's learner.
  std::int64_t foreign_refused = 0;
  std::int64_t foreign_replica_updates = 0;
};

// What the metrics actor knows at the end of a run.
struct metrics_totals {
  std::int64_t env_steps = 0;
  std::int64_t episodes = 0;
  double final_mean_return = 0.0;  // last 100 episodes (or fewer if fewer ran)
  bool solved = false;
  double seconds_to_target = -1.0;  // < 0: not reached
  std::int64_t env_steps_to_target = -1;
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

// One frame of an agent's environment, rendered because a viewer asked for
// it (see actors/frames/frame_hub.hpp), with what the viewer's panel shows beside it.
struct env_frame {
  std::uint32_t agent_id = 0;
  std::int32_t agent_count = 1;  // agents there are to watch (the hub fills it in)
  std::uint64_t sequence = 0;    // the hub's numbering: later frames, larger numbers
  envs::rgb_frame image;
  bool pixel_art = false;        // a grid game: scale by nearest neighbour
  viewer::overlay_info info;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, predict_request& x) {
  byte_vector_field masks{x.action_masks};
  return f(caf::meta::type_name("predict_request"), x.agent_id, x.rows, x.observations,
           x.states, x.policy_row, masks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, predict_reply& x) {
  return f(caf::meta::type_name("predict_reply"), x.actions, x.logp, x.values, x.version,
           x.states, x.row_policy);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, train_ack& x) {
  return f(caf::meta::type_name("train_ack"), x.sequence, x.trained);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_update& x) {
  return f(caf::meta::type_name("replica_update"), x.origin, x.sequence, x.delta);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pbt_step& x) {
  return f(caf::meta::type_name("pbt_step"), x.source, x.state, x.keys, x.values);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pbt_final& x) {
  return f(caf::meta::type_name("pbt_final"), x.state_json, x.failure);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_hyperparams& x) {
  return f(caf::meta::type_name("member_hyperparams"), x.keys, x.values);
}
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
typename Inspector::result_type inspect(Inspector& f, join_request& x) {
  return f(caf::meta::type_name("join_request"), x.protocol, x.token, x.name, x.agents);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, join_reply& x) {
  byte_vector_field remote{x.policy_remote_opponents};
  return f(caf::meta::type_name("join_reply"), x.first_agent_id, x.seed, x.agent_policies,
           x.policy_configs, remote);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, opponent_request& x) {
  byte_vector_field ended{x.event_ended};
  byte_vector_field masks{x.action_masks};
  return f(caf::meta::type_name("opponent_request"), x.agent_id, x.event_games, ended,
           x.event_seeds, x.event_returns, x.games, x.agents, x.observations, masks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, opponent_reply& x) {
  return f(caf::meta::type_name("opponent_reply"), x.actions, x.local_games, x.local_players, x.local_seeds,
           x.watched_who, x.watched_policy);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_final& x) {
  return f(caf::meta::type_name("cluster_final"), x.workers_joined, x.workers_refused,
           x.messages_rejected, x.dropped_at_door, x.predicts_relayed, x.rollouts_relayed,
           x.opponent_moves);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, door_counts& x) {
  return f(caf::meta::type_name("door_counts"), x.accepted, x.refused, x.timed_out, x.bad_frames);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, stream_final& x) {
  return f(caf::meta::type_name("stream_final"), x.viewers_admitted, x.viewers_refused,
           x.requests_refused, x.dropped_at_door);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, batch_stats& x) {
  return f(caf::meta::type_name("batch_stats"), x.forward_passes, x.requests,
           x.observations, x.largest_batch, x.size_histogram, x.forward_seconds,
           x.reply_seconds, x.foreign_refused);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_final& x) {
  return f(caf::meta::type_name("agent_final"), x.agent_id, x.samples_collected,
           x.samples_dropped, x.rollouts_sent);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, learner_final& x) {
  return f(caf::meta::type_name("learner_final"), x.samples_trained, x.samples_dropped,
           x.samples_stale, x.acks_held, x.updates, x.updates_skipped, x.updates_refused, x.batches, x.train_seconds, x.version,
           x.peer_updates, x.max_replica_lag, x.foreign_refused, x.foreign_replica_updates);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, metrics_totals& x) {
  return f(caf::meta::type_name("metrics_totals"), x.env_steps, x.episodes,
           x.final_mean_return, x.solved, x.seconds_to_target, x.env_steps_to_target,
           x.updates, x.samples_trained, x.mean_policy_lag, x.max_policy_lag, x.confirmations,
           x.confirmed_return, x.confirmed_version, x.best_evaluations, x.nodes,
           x.foreign_refused, x.run_env_steps_to_target);
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
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, env_frame& x) {
  return f(caf::meta::type_name("env_frame"), x.agent_id, x.agent_count, x.sequence, x.image,
           x.pixel_art, x.info);
}

}  // namespace troupe::actors

namespace troupe::algo {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rollout& x) {
  actors::byte_vector_field terminated{x.terminated}, truncated{x.truncated},
      masks{x.action_masks};
  return f(caf::meta::type_name("rollout"), x.agent_id, x.sequence, x.n_steps, x.n_envs,
           x.obs_size, x.action_size, x.state_size, x.mask_size, x.observations,
           x.initial_states, x.actions, x.rewards, terminated, truncated, x.behaviour_logp,
           x.behaviour_version, x.truncation_observations, masks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rollout_id& x) {
  return f(caf::meta::type_name("rollout_id"), x.agent_id, x.sequence);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, train_result& x) {
  return f(caf::meta::type_name("train_result"), x.applied, x.frozen, x.rollouts, x.samples,
           x.updates, x.updates_skipped, x.epochs, x.sample_passes, x.version, x.lag_sum,
           x.lag_max, x.loss, x.policy_loss, x.value_loss, x.entropy, x.approx_kl,
           x.clip_fraction, x.lr);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, optimizer_state& x) {
  return f(caf::meta::type_name("optimizer_state"), x.kind, x.step, x.tensors);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, learned_state& x) {
  return f(caf::meta::type_name("learned_state"), x.parameters, x.optimizer);
}
}  // namespace troupe::algo

namespace troupe::envs {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rgb_frame& x) {
  actors::byte_vector_field pixels{x.pixels};
  return f(caf::meta::type_name("rgb_frame"), x.width, x.height, pixels);
}
}  // namespace troupe::envs

namespace troupe::model {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, running_moments& x) {
  return f(caf::meta::type_name("running_moments"), x.mean, x.var, x.count);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, parameter_state& x) {
  return f(caf::meta::type_name("parameter_state"), x.flat, x.buffers, x.obs_moments, x.return_moments, x.version);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, checkpoint_meta& x) {
  return f(caf::meta::type_name("checkpoint_meta"), x.version, x.env_steps, x.episodes,
           x.updates, x.samples_trained, x.wall_seconds, x.segment, x.config_yaml,
           x.evaluated_episodes, x.evaluated_return);
}
}  // namespace troupe::model

CAF_BEGIN_TYPE_ID_BLOCK(troupe, caf::first_custom_type_id)
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::predict_request))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::predict_reply))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::train_ack))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::episode_report))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::batch_stats))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::agent_final))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::learner_final))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::metrics_totals))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::stop_request))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::evaluation_report))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::node_stats))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::join_request))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::join_reply))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::cluster_final))
  CAF_ADD_TYPE_ID(troupe, (troupe::algo::rollout))
  CAF_ADD_TYPE_ID(troupe, (troupe::algo::train_result))
  CAF_ADD_TYPE_ID(troupe, (troupe::model::checkpoint_meta))
  CAF_ADD_ATOM(troupe, troupe::actors, start_atom, "start")
  CAF_ADD_ATOM(troupe, troupe::actors, stop_atom, "stop")
  CAF_ADD_ATOM(troupe, troupe::actors, stats_atom, "stats")
  CAF_ADD_ATOM(troupe, troupe::actors, drain_atom, "drain")
  CAF_ADD_ATOM(troupe, troupe::actors, totals_atom, "totals")
  CAF_ADD_ATOM(troupe, troupe::actors, batch_timeout_atom, "batch_tmo")
  CAF_ADD_ATOM(troupe, troupe::actors, checkpoint_atom, "checkpoint")
  CAF_ADD_ATOM(troupe, troupe::actors, evaluate_atom, "evaluate")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::env_frame))
  CAF_ADD_ATOM(troupe, troupe::actors, render_atom, "render")
  CAF_ADD_ATOM(troupe, troupe::actors, next_frame_atom, "next_frame")
  CAF_ADD_ATOM(troupe, troupe::actors, agent_atom, "agent")
  CAF_ADD_ATOM(troupe, troupe::actors, metrics_atom, "metrics")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::replica_update))
  CAF_ADD_ATOM(troupe, troupe::actors, peers_atom, "peers")
  CAF_ADD_ATOM(troupe, troupe::actors, watch_atom, "watch")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::stream_final))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::door_counts))
  CAF_ADD_ATOM(troupe, troupe::actors, lane_atom, "lane")
  CAF_ADD_ATOM(troupe, troupe::actors, act_atom, "act")
  CAF_ADD_ATOM(troupe, troupe::actors, best_atom, "best")
  CAF_ADD_ATOM(troupe, troupe::actors, round_atom, "round")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::pbt_step))
  CAF_ADD_ATOM(troupe, troupe::actors, pbt_atom, "pbt")
  CAF_ADD_ATOM(troupe, troupe::actors, final_atom, "final")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::opponent_request))
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::opponent_reply))
  CAF_ADD_TYPE_ID(troupe, (troupe::algo::learned_state))
  CAF_ADD_ATOM(troupe, troupe::actors, snapshot_atom, "snapshot")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::pbt_final))
  CAF_ADD_ATOM(troupe, troupe::actors, decide_atom, "decide")
  CAF_ADD_TYPE_ID(troupe, (troupe::actors::member_hyperparams))
CAF_END_TYPE_ID_BLOCK(troupe)

namespace troupe::actors {
// Adds the project's message types and the scheduler settings measured to
// suit this workload (actors/actor_system_setup.cpp says why: idle workers
// otherwise sleep-poll).
void configure_actor_system(caf::actor_system_config& cfg);
}  // namespace troupe::actors
