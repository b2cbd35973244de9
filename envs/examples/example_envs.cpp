#include "envs/examples/example_envs.hpp"

#include "envs/examples/archer.hpp"
#include "envs/examples/corridor.hpp"
#include "envs/examples/courier.hpp"
#include "envs/examples/legal_moves.hpp"
#include "envs/examples/memory_cue.hpp"

namespace troupe::envs::examples {

std::vector<env_entry> example_envs() {
  return {entry_without_options<corridor>("Example/Corridor-v0"),
          entry_without_options<legal_moves>("Example/LegalMoves-v0"),
          entry_without_options<courier>("Example/Courier-v0"), entry_without_options<archer>("Example/Archer-v0"),
          entry_without_options<memory_cue>("Example/MemoryCue-v0")};
}

}  // namespace troupe::envs::examples
