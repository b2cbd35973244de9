#include "envs/minatar/minatar_envs.hpp"

#include "envs/minatar/minatar_env.hpp"

namespace troupe::envs {

std::vector<env_entry> minatar_envs() {
  std::vector<env_entry> table;
  for (auto which : {minatar_env::game::asterix, minatar_env::game::breakout, minatar_env::game::freeway,
                     minatar_env::game::seaquest, minatar_env::game::space_invaders})
    table.push_back({minatar_env::id_of(which), [which](const env_config& config) {
                       return std::unique_ptr<env>(new minatar_env(which, config.minatar));
                     }});
  return table;
}

}  // namespace troupe::envs
