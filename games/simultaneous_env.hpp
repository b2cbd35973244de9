#pragma once
// A game of several agents who all act at every step (PettingZoo's Parallel
// semantics): each observes the game from its own side, every agent's action
// is taken together, and the step rewards each agent; an agent may leave
// before the others (joint_result::left). Plain C++, like
// turn_based_env.hpp; games/seat_vector.hpp turns one into what a policy
// steps.
#include <cstdint>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "games/game_result.hpp"

namespace troupe::games {

using envs::env_spec;

// A step's result for every agent (games/game_result.hpp).
using joint_result = game_result;

class simultaneous_env {
 public:
  virtual ~simultaneous_env() = default;
  // What the game is (its id is spec().id) and what agent 0 observes and
  // does.
  virtual const env_spec& spec() const = 0;
  // What `agent` observes and does: spec() unless the game's agents have
  // spaces of their own. Its id is spec().id.
  virtual const env_spec& agent_spec(int agent) const { return spec(); }
  virtual int agent_count() const = 0;
  virtual std::string agent_name(int agent) const = 0;

  virtual void reset(std::uint64_t seed) = 0;
  // `agent`'s view of the game now: agent_spec(agent).observation.flat_size()
  // floats.
  virtual void observe(int agent, float* observation) const = 0;
  // With agent_spec(agent).has_action_mask: `agent`'s legal actions.
  virtual void action_mask(int agent, std::uint8_t* legal) const {}
  // Every agent's action at once, agent after agent (agent_count() rows,
  // agent a's of agent_spec(a).action.flat_size() floats). Throws on an
  // action the game refuses.
  virtual joint_result step(const float* actions) = 0;
};

}  // namespace troupe::games
