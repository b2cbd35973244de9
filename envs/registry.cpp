#include "envs/registry.hpp"

#include <stdexcept>

#include "envs/acrobot.hpp"
#include "envs/cartpole.hpp"
#include "envs/env_id.hpp"
#include "envs/examples/archer.hpp"
#include "envs/examples/corridor.hpp"
#include "envs/examples/courier.hpp"
#include "envs/examples/legal_moves.hpp"
#include "envs/examples/memory_cue.hpp"
#include "envs/games/connect_four_env.hpp"
#include "envs/games/connect_four_game.hpp"
#include "envs/minatar/minatar_env.hpp"
#include "envs/mountain_car.hpp"
#include "envs/mujoco/tasks.hpp"
#include "envs/mountain_car_continuous.hpp"
#include "envs/observed_vector.hpp"
#include "envs/pendulum.hpp"
#include "envs/plugin/plugin_env.hpp"
#include "envs/python/python_env_vector.hpp"

namespace troupe::envs {

namespace {
// An environment whose constructor takes no options.
template <class Env>
registry_entry entry(std::string id) {
  return {std::move(id), [](const env_config&) { return std::unique_ptr<env>(new Env()); }};
}

// A MinAtar game; the factory passes the run's MinAtar options.
registry_entry minatar_entry(minatar_env::game which) {
  return {minatar_env::id_of(which), [which](const env_config& config) {
            return std::unique_ptr<env>(new minatar_env(which, config.minatar));
          }};
}
}  // namespace

std::vector<registry_entry> builtin_envs() {
  std::vector<registry_entry> table = {
      entry<cartpole>("CartPole-v1"),
      minatar_entry(minatar_env::game::asterix),
      minatar_entry(minatar_env::game::breakout),
      minatar_entry(minatar_env::game::freeway),
      minatar_entry(minatar_env::game::seaquest),
      minatar_entry(minatar_env::game::space_invaders),
      entry<acrobot>("Acrobot-v1"),
      entry<mountain_car>("MountainCar-v0"),
      entry<pendulum>("Pendulum-v1"),
      entry<mountain_car_continuous>("MountainCarContinuous-v0"),
      entry<examples::corridor>("Example/Corridor-v0"),
      entry<examples::legal_moves>("Example/LegalMoves-v0"),
      entry<examples::courier>("Example/Courier-v0"),
      entry<examples::archer>("Example/Archer-v0"),
      entry<examples::memory_cue>("Example/MemoryCue-v0"),
      {games::connect_four_env::id,
       [](const env_config& config) { return std::unique_ptr<env>(new games::connect_four_env(config.versus)); },
       [](const env_config&) { return std::unique_ptr<turn_based_env>(new games::connect_four_game()); }},
  };
  for (const auto& task : mujoco::tasks()) table.push_back({task.id, task.make});
  return table;
}

std::vector<registry_entry>& table() {
  static std::vector<registry_entry> table = builtin_envs();
  return table;
}

const std::vector<registry_entry>& registered_envs() { return table(); }

void register_env(registry_entry entry) {
  if (is_registered(entry.id))
    throw std::invalid_argument("environment '" + entry.id + "' is registered already");
  table().push_back(std::move(entry));
}

bool is_registered(const std::string& id) {
  for (const auto& e : registered_envs())
    if (e.id == id) return true;
  return false;
}

std::unique_ptr<env> make_env(const std::string& id) {
  env_config config;
  config.id = id;
  return make_env(config);
}

namespace {
// Environments from outside Troupe, by their id's prefix; null for a
// registered id.
std::unique_ptr<env_vector> make_external_vector(const env_config& config, int count) {
  switch (parse_env_id(config.id).source) {
    case env_source::python:
    case env_source::gymnasium:
      return std::make_unique<python::python_env_vector>(config, count);
    case env_source::plugin:
      return plugin::make_plugin_vector(config, count);
    case env_source::registered:
      break;
  }
  return nullptr;
}
}  // namespace

std::unique_ptr<env> make_env(const env_config& config) {
  // Selected observations are a vector's business, as are environments from
  // outside Troupe: a vector of one.
  if (!config.observe.empty() || parse_env_id(config.id).source != env_source::registered)
    return std::make_unique<vector_as_env>(make_env_vector(config, 1));
  const std::string& id = config.id;
  for (const auto& e : registered_envs())
    if (e.id == id) return e.make(config);
  throw env_key_error("env.id", env_id_problem(id));
}

std::unique_ptr<env_vector> make_env_vector(const env_config& config, int count) {
  env_config whole = config;
  whole.observe.clear();
  std::unique_ptr<env_vector> vector = make_external_vector(whole, count);
  if (!vector) {
    std::vector<std::unique_ptr<env>> envs;
    for (int i = 0; i < count; ++i) envs.push_back(make_env(whole));
    vector = std::make_unique<native_env_vector>(std::move(envs));
  }
  if (config.observe.empty()) return vector;
  return std::make_unique<observed_vector>(std::move(vector), config.observe);
}

bool is_turn_based_game(const std::string& id) {
  for (const auto& e : registered_envs())
    if (e.id == id) return bool(e.make_game);
  return false;
}

std::string turn_based_games() {
  std::string names;
  for (const auto& e : registered_envs())
    if (e.make_game) names += (names.empty() ? "" : ", ") + e.id;
  return names;
}

std::unique_ptr<turn_based_env> make_turn_based_env(const env_config& config) {
  for (const auto& e : registered_envs())
    if (e.id == config.id && e.make_game) return e.make_game(config);
  throw env_key_error("env.id", config.id + " is not a two-player turn-based game (those are: " + turn_based_games() + ")");
}

env_spec spec_of(const env_config& config) { return make_env_vector(config, 1)->spec(); }

}  // namespace troupe::envs
