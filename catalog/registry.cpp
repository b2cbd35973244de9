#include "catalog/registry.hpp"

#include <sys/stat.h>
#include <stdexcept>

#include "bridges/plugin/plugin_env.hpp"
#include "bridges/python/python_env_vector.hpp"
#include "bridges/python/python_game_vector.hpp"
#include "envs/classic/classic_envs.hpp"
#include "envs/env_id.hpp"
#include "envs/examples/example_envs.hpp"
#include "envs/minatar/minatar_envs.hpp"
#include "envs/mujoco/tasks.hpp"
#include "envs/observed_vector.hpp"
#include "catalog/games.hpp"
#include "catalog/players.hpp"
#include "games/builtin/builtin_games.hpp"

namespace troupe::catalog {

using envs::env_id;
using envs::env_key_error;
using envs::env_source;
using envs::native_env_vector;
using envs::observed_vector;
using envs::vector_as_env;
using games::parse_seat;

namespace {
// Game `id` as an environment: one side of it against env.opponent.
env_factory one_side_of(std::string id) {
  return [id = std::move(id)](const env_config& options) {
    env_config config = options;
    config.id = id;  // whatever id the options came with
    if (config.versus.seat == "all")
      throw env_key_error("env.seat", id +
                                          ": all plays every agent of a game, a vector of agents rather than one "
                                          "environment; one environment is one seat (first, second or alternate)");
    return std::unique_ptr<env>(new vector_as_env(make_game_side(
        config, 1, parse_seat(config.versus.seat), [&config](const env_spec& spec) {
          return builtin_opponents(config.versus.opponent, 1, config, spec, "env.opponent");
        })));
  };
}
}  // namespace

// Each family's table, in the order `troupe envs` lists them: adding an
// environment edits its family's file, and only a new family edits this one.
std::vector<registry_entry> builtin_envs() {
  std::vector<registry_entry> table;
  for (auto* family : {envs::classic_envs, envs::minatar_envs, envs::examples::example_envs})
    for (auto& e : family()) table.push_back({std::move(e.id), std::move(e.make)});
  for (auto& game : games::builtin_games()) {
    env_factory side = one_side_of(game.id);
    if (game.make_side_env)
      side = [make_game = game.make_game, make_side = game.make_side_env](const env_config& config) {
        return make_side(config, builtin_opponents(config.versus.opponent, 1, env_config{},
                                                   make_game(config)->spec(), "env.opponent"));
      };
    table.push_back({game.id, std::move(side), std::move(game.make_game), std::move(game.make_simultaneous)});
  }
  for (const auto& task : envs::mujoco::tasks()) table.push_back({task.id, task.make});
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
  switch (config.id.source()) {
    case env_source::python: {
      // A PettingZoo AEC game is one seat of it against env.opponent.
      bridges::python::host_group hosts =
          bridges::python::start_environment_hosts(config, count, bridges::python::host_serves::environments_or_games);
      if (hosts.kind == "env") return std::make_unique<bridges::python::python_env_vector>(config, std::move(hosts));
      auto games = std::make_unique<bridges::python::python_game_vector>(config, std::move(hosts));
      return side_of_games(std::move(games), config, parse_seat(config.versus.seat), [&](const env_spec& spec) {
        try {
          return builtin_opponents(config.versus.opponent, count, config, spec, "env.opponent");
        } catch (const std::invalid_argument& e) {
          throw env_key_error("env.opponent", e.what());
        }
      });
    }
    case env_source::gymnasium:
      return std::make_unique<bridges::python::python_env_vector>(config, count);
    case env_source::plugin:
      return bridges::plugin::make_plugin_vector(config, count);
    case env_source::registered:
      break;
  }
  return nullptr;
}
}  // namespace

std::unique_ptr<env> make_env(const env_config& config) {
  // Selected observations are a vector's business, as are environments from
  // outside Troupe: a vector of one.
  if (!config.observe.empty() || config.id.source() != env_source::registered)
    return std::make_unique<vector_as_env>(make_env_vector(config, 1));
  const std::string& id = config.id.text();
  for (const auto& e : registered_envs())
    if (e.id == id) return e.make(config);
  throw env_key_error("env.id", env_id_problem(id));
}

std::unique_ptr<env_vector> make_env_vector(const env_config& config, int count) {
  env_config whole = config;
  whole.observe.clear();
  std::unique_ptr<env_vector> vector = make_external_vector(whole, count);
  if (!vector && whole.versus.seat == "all" && is_game(whole.id)) {
    // Every agent of each game is a row of its own (games/seat_vector.hpp).
    vector = make_game_side(whole, count, seat_choice::all, [&](const env_spec& spec) {
      return builtin_opponents(whole.versus.opponent, count, whole, spec, "env.opponent");
    });
  }
  if (!vector) {
    std::vector<std::unique_ptr<env>> envs;
    for (int i = 0; i < count; ++i) envs.push_back(make_env(whole));
    vector = std::make_unique<native_env_vector>(std::move(envs));
  }
  if (config.observe.empty()) return vector;
  return std::make_unique<observed_vector>(std::move(vector), config.observe);
}

env_spec spec_of(const env_config& config) { return make_env_vector(config, 1)->spec(); }

std::string env_id_problem(const std::string& id) {
  try {
    const env_id parts(id);
    if (parts.source() == env_source::plugin) {
      struct stat info;
      if (stat(parts.target().c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return "'" + id + "': no such plugin file " + parts.target();
    }
    if (parts.source() != env_source::registered || is_registered(id)) return "";
  } catch (const env_key_error& e) {
    return e.what();
  }
  std::string known;
  for (const auto& e : registered_envs()) known += (known.empty() ? "" : ", ") + e.id;
  return "unknown environment '" + id + "' (registered: " + known +
         "; or python:MODULE:CALLABLE, gymnasium:ENV_ID, plugin:PATH.so)";
}

}  // namespace troupe::catalog
