#pragma once
// The seats outside a policy's side played by several players, each seat by
// its own: in a run of several policies, the agents of each other policy
// by that policy (and a policy's own agents outside its side this episode
// by itself). Each round's rows are split by the agent they move for, each
// player asked once for all of its rows, in their order; episodes' starts
// and ends go to every player.
#include <memory>
#include <vector>

#include "games/opponents.hpp"
#include "games/seats.hpp"

namespace troupe::games {

using envs::env_spec;

// One player's share of a round's rows: rows `picked` of the round (in
// order) gathered, asked of `player` in one call, and its answers written
// back into those rows of `actions`. Its buffers are kept for the next
// round. What route_by_agent does for each of its players, and what any
// object that splits a round between players does.
class row_share {
 public:
  explicit row_share(const env_spec& spec);
  void act(opponents& player, const std::vector<int>& picked, const int* games, const int* agents,
           const float* observations, const std::uint8_t* masks, float* actions);

 private:
  side_sizes sizes_;
  std::vector<int> games_, agents_;
  std::vector<float> obs_, actions_;
  std::vector<std::uint8_t> masks_;
};

// `agents_of_player[p]`: the agents (indices, 0 moves first) players[p]
// plays; an agent no player lists is the side's, never asked. `spec`: the
// spaces of the agents they play (alike: games::specs_of_side). Throws
// std::invalid_argument when a player plays no agent, or an agent is
// negative or listed by two players.
std::unique_ptr<opponents> route_by_agent(std::vector<std::unique_ptr<opponents>> players,
                                          const std::vector<std::vector<int>>& agents_of_player,
                                          const env_spec& spec);

}  // namespace troupe::games
