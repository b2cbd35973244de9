#pragma once
// The seats outside a policy's side played by several players, each seat by
// its own: in a run of several policies, the agents of each other policy
// by that policy (and a policy's own agents outside its side this episode
// by itself). Each round's rows are split by the agent they move for, each
// player asked once for all of its rows, in their order; episodes' starts
// and ends go to every player.
#include <memory>
#include <vector>

#include "envs/seat_vector.hpp"

namespace troupe::envs {

// `player_of_agent[a]`: the index in `players` of whoever plays agent a
// (-1: an agent of the side, never asked); `spec`: the spaces of the agents
// they play (alike: envs::specs_of_side). Throws std::invalid_argument when
// an index is out of range or a player plays no agent.
std::unique_ptr<opponents> route_by_agent(std::vector<std::unique_ptr<opponents>> players,
                                          std::vector<int> player_of_agent, const env_spec& spec);

}  // namespace troupe::envs
