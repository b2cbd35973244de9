#include "bridges/python/host_protocol.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "games/game_result.hpp"

namespace troupe::bridges::python {

using games::game_result;

game_state_head read_state_head(const char* at, size_t agents) {
  game_state_head head;
  std::memcpy(&head.to_move, at, sizeof head.to_move);
  head.terminated = at[sizeof head.to_move] != 0;
  const auto* ends = reinterpret_cast<const std::uint8_t*>(at + sizeof head.to_move + 2);
  bool any = false;
  for (size_t a = 0; a < agents; ++a) {
    if (ends[a] > game_result::agent_truncated)
      throw std::runtime_error("the Python game host answered an agent's end of " + std::to_string(ends[a]) +
                               " (0, 1 or 2 expected)");
    any = any || ends[a] != 0;
  }
  if (any) head.left.assign(ends, ends + agents);
  return head;
}

}  // namespace troupe::bridges::python
