#pragma once
// The other seat of one worker's agent's games, played on the learner's
// node: the agent's opponent requests (relayed by the gateway) begin and end
// its games' episodes and ask for moves; the host hands them to what its
// policy's own agents play against (self-play's league, the other policy's
// live parameters), so that a worker's games draw their opponents and move
// the Elo ratings as the learner's own do. Detached: those players wait on
// model-owners from the calling thread. Quits when `gateway` does.
#include <caf/fwd.hpp>
#include <caf/typed_actor.hpp>

#include "actors/cluster/gateway.hpp"

namespace troupe::actors {

using opponent_host_actor = caf::typed_actor<caf::replies_to<opponent_request>::with<opponent_reply>>;

// `action_width`: the floats of one move.
opponent_host_actor spawn_opponent_host(caf::actor_system& sys, opponents_maker make, int action_width,
                                        const cluster_gateway_actor& gateway);

}  // namespace troupe::actors
