#pragma once
// The cluster gateway: the one actor a learner node publishes over TCP.
// Workers join through it with the shared token and then send everything
// through it: predict requests (relayed to the model-owner), rollouts
// (relayed to the learner) and episode reports (to the metrics actor) of
// the policy each of their agents plays for, and, where a policy's games
// need it, requests for the other seat's moves (relayed to an opponent host
// per agent: actors/cluster/opponent_host.hpp). With several devices, a
// remote agent talks to the model-owner and learner of replica (agent id
// mod the number of replicas), as local agents do. Workers
// also name their agents, so that the learner's frame hub (when someone may
// watch) can ask them for frames like its own, through a render relay
// (actors/cluster/render_relay.hpp).
//
// Relayed, not delegated: the gateway asks the model-owner or learner and
// answers the worker itself, so their handles never leave the learner's
// node and no peer can address them (actors/net/network_facing.hpp). Nothing
// from the network reaches those actors unchecked: the sender must be a
// joined worker, the message must have the run's shapes and finite numbers,
// a rollout must not repeat one already relayed nor claim a parameter
// version no predict reply has carried yet.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/agent_actor.hpp"
#include "actors/cluster/message_checks.hpp"
#include "actors/frames/frame_hub.hpp"
#include "actors/learner_actor.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/predict.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"

namespace troupe::actors {

// A worker speaking another version is refused with a message saying so.
// 4: predict requests and rollouts carry action masks. 5: a frame's panel
// highlights one action per component and marks the masked ones. 6: a
// worker's agents play for the run's policies (a population's members), and
// their games' other seat is played on the learner's node.
constexpr std::int32_t cluster_protocol_version = 6;

// stop_atom comes from the coordinator only (an actor of this process whose
// handle never left it): the gateway stops relaying, tells every worker the
// run has ended, and answers what it saw. Refusals are actors/errors.hpp's codes: a worker is refused
// (errc::refused), speaks another protocol (protocol_mismatch), comes after
// the end (run_ended); a message fails its checks (malformed) or comes from
// a node that has not joined (not_joined).
using cluster_gateway_actor =
    caf::typed_actor<caf::replies_to<join_request>::with<join_reply>,
                     caf::replies_to<predict_request>::with<predict_reply>,
                     caf::replies_to<algo::rollout>::with<train_ack>,
                     caf::replies_to<opponent_request>::with<opponent_reply>,
                     caf::reacts_to<episode_report>,
                     // A worker: its agent with this id is this actor (again
                     // after a restart), for viewers.
                     caf::reacts_to<agent_atom, std::uint32_t, agent_actor>,
                     caf::replies_to<stop_atom>::with<cluster_final>>;

// What plays the other seat of one remote agent's games, made on the
// learner's node (actors/cluster/opponent_host.hpp).
using opponents_maker = std::function<std::unique_ptr<games::opponents>(caf::actor_system&)>;

// One policy a worker's agent may play for: the run's only one, one of
// policies:, or a population's member. Workers' agents are dealt to the
// policies in turn, as the learner's own are.
struct gateway_policy {
  std::vector<model_owner_actor> owners;  // one per replica, in replica order
  std::vector<learner_actor> learners;
  metrics_actor metrics;
  std::string config_yaml;  // what its agents are made from; holds no token
  run_shapes shapes;        // to check what arrives (actors/cluster/message_checks.hpp)
  // The other seat's, to check the positions its agents ask moves for (a
  // game's agents may have spaces of their own).
  run_shapes opponent_shapes;
  opponents_maker opponents;  // null: its agents ask for no other seat
};

struct gateway_config {
  std::string token;
  std::uint64_t seed = 1;   // workers' agents draw theirs from it
  int max_agents_per_worker = 1024;
  // Rollouts remembered per worker to recognise a replayed one.
  int replay_window = 4096;
  // Where viewers see the workers' agents: the hub's slots from
  // first_view_slot on. No hub: nobody can watch, agents are not named.
  frame_hub_actor frame_hub;
  std::int32_t first_view_slot = 0;
};

// Throws std::invalid_argument without a policy, or one without a replica.
cluster_gateway_actor spawn_gateway(caf::actor_system& sys, const gateway_config& config,
                                    std::vector<gateway_policy> policies);

}  // namespace troupe::actors
