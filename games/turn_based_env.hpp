#pragma once
// A game of several agents who take turns, one acting while the others wait
// (PettingZoo's AEC semantics for games where exactly one agent acts at a
// time): each agent observes the game from its own side, the agent to move
// acts, and every agent may be rewarded by any agent's move (a loss arrives
// on the winner's move). Plain C++, like env.hpp; games/seat_vector.hpp
// turns one into what a policy steps.
#include <cstdint>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "games/game_result.hpp"

namespace troupe::games {

using envs::env_spec;

// A move's result for every agent (games/game_result.hpp); an agent that
// leaves before the game ends (an elimination) is named in `left`, and is
// never the mover again.
using turn_result = game_result;

class turn_based_env {
 public:
  virtual ~turn_based_env() = default;
  // What the game is (its id is spec().id) and what agent 0 observes and
  // does.
  virtual const env_spec& spec() const = 0;
  // What `agent` observes and does: spec() unless the game's agents have
  // spaces of their own (a sender and a receiver, say). Its id is spec().id.
  virtual const env_spec& agent_spec(int agent) const { return spec(); }
  virtual int agent_count() const = 0;
  // PettingZoo's names ("player_0"), for logs and windows.
  virtual std::string agent_name(int agent) const = 0;

  virtual void reset(std::uint64_t seed) = 0;
  // The agent whose move it is; meaningful while the game goes on.
  virtual int to_move() const = 0;
  // `agent`'s view of the game now: agent_spec(agent).observation.flat_size()
  // floats.
  virtual void observe(int agent, float* observation) const = 0;
  // With the mover's agent_spec().has_action_mask: its legal actions.
  virtual void action_mask(std::uint8_t* legal) const {}
  // The mover's action (its agent_spec().action.flat_size() values). Throws
  // on an action the game refuses; the game is then as it was.
  virtual turn_result step(const float* action) = 0;
};

}  // namespace troupe::games
