#pragma once
// What a move or a step of a game of several agents gave them: each agent's
// reward, the game's end, and the agents whose own part ended there. One
// struct for both kinds of games (turn_based_env.hpp, simultaneous_env.hpp).
#include <cstdint>
#include <vector>

namespace troupe::games {

struct game_result {
  std::vector<double> rewards;  // one per agent, for this move or step
  bool terminated = false;      // the game reached its end
  bool truncated = false;       // a move or step limit cut it
  // Agents whose own part ended here, one entry per agent (empty when none
  // did): 0 plays on, agent_terminated or agent_truncated. PettingZoo's
  // agents may leave one by one: an agent that has left takes no more
  // actions (a simultaneous game ignores its rows; a turn-based one never
  // names it the mover) and gets no more rewards, and the game ends once
  // none is left. An agent whose entry is 0 when the game ends ends with
  // the game's terminated / truncated.
  std::vector<std::uint8_t> left;
  static constexpr std::uint8_t agent_terminated = 1, agent_truncated = 2;

  // `agent`'s entry of `left`: 0 while it plays on.
  std::uint8_t end_of(int agent) const { return left.empty() ? std::uint8_t(0) : left.at(size_t(agent)); }
};

}  // namespace troupe::games
