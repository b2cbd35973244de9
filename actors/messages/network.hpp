#pragma once
// What crosses a network port: a worker's join and the learner's answer,
// the other seat's moves asked for over the cluster (actors/cluster/), and
// the final counts of the gateway, the front doors and a frame stream's gate.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/byte_vector_field.hpp"
#include "actors/messages/atoms.hpp"
#include "actors/messages/type_id_ranges.hpp"

namespace troupe::actors {

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

}  // namespace troupe::actors

CAF_BEGIN_TYPE_ID_BLOCK(troupe_network, troupe::actors::type_id_ranges::network)
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::join_request))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::join_reply))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::opponent_request))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::opponent_reply))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::cluster_final))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::door_counts))
  CAF_ADD_TYPE_ID(troupe_network, (troupe::actors::stream_final))
CAF_END_TYPE_ID_BLOCK(troupe_network)
