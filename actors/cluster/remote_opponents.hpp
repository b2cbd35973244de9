#pragma once
// A worker's side of its agents' games when the other seat is played on
// the learner's node (self-play's league, another policy): the agent's
// thread asks the gateway, which relays to the agent's opponent host
// (actors/cluster/opponent_host.hpp). The episodes that began and ended
// since the last request ride on the next one, in order, so a round of
// moves is one round trip. A player drawn there that searches the game's
// own state (a Python game's alphabeta:N) cannot play on the learner's
// node: the answer hands that game back, and it is played here, in the
// worker's games, by the player and seed the league drew.
#include <cstdint>

#include "actors/agent_actor.hpp"
#include "actors/cluster/gateway.hpp"

namespace troupe::actors {

opponent_source remote_opponents(cluster_gateway_actor gateway, std::uint32_t agent_id);

}  // namespace troupe::actors
