#pragma once
// The other seat of an agent's games played by another policy of the run
// (policies:): its live parameters, through its model-owner, every game's
// move of a round asked in one request from the agent's thread. Each policy
// trains on its own agents' rollouts only; what the other side does is
// part of the environment it sees.
#include <memory>
#include <string>

#include "actors/predict_client.hpp"
#include "games/opponents.hpp"

namespace troupe::actors {

// `name`: the other policy's, for a viewer ("policy NAME"); `state_size`:
// its recurrent state per row (0: feed-forward), carried per game and agent
// across the moves between (agents/league/opponent_states.hpp).
std::unique_ptr<games::opponents> policy_opponents(caf::actor_system& sys, predict_service owner,
                                                  std::shared_ptr<predict_lane> lane, const envs::env_spec& spec,
                                                  const std::string& name, int state_size = 0);

}  // namespace troupe::actors
