#include "catalog/games.hpp"

#include <stdexcept>

#include "bridges/python/python_game_vector.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"
#include "games/agent_pattern.hpp"
#include "games/seat_vector.hpp"

namespace troupe::catalog {

using envs::env_key_error;
using envs::env_source;
using envs::env_id;
using games::agents_matching;
using games::native_game_vector;
using games::parse_seat;
using games::seat_vector;
using games::simultaneous_env;
using games::specs_of_side;
using games::turn_based_env;

std::vector<int> team_agents(const env_config& config, const std::vector<std::string>& names) {
  if (config.versus.seat != "all" && config.versus.seat != "alternate") return {};
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  for (const auto& pattern : config.versus.team)
    if (agents_matching({pattern}, names).empty())
      throw env_key_error("env.team", config.id.text() + ": '" + pattern + "' names none of the game's agents (" + all + ")");
  return agents_matching(config.versus.team.empty() ? std::vector<std::string>{"*"} : config.versus.team, names);
}

namespace {

// The agents of k games.
game_agents agents_of(const game_vector& game) {
  game_agents agents;
  for (int a = 0; a < game.agent_count(); ++a) {
    agents.names.push_back(game.agent_name(a));
    agents.specs.push_back(game.agent_spec(a));
  }
  return agents;
}

}  // namespace

std::unique_ptr<env_vector> side_of_games(std::unique_ptr<game_vector> games, const env_config& config,
                                          seat_choice side, const opponents_for& others,
                                          const opening_options& opening) {
  const game_agents agents = agents_of(*games);
  const std::vector<int> team = team_agents(config, agents.names);
  const env_spec other = *specs_of_side(agents.spec_list(), agents.names, side, team).other;
  // selfplay.random_opening: a simultaneous game ignores it.
  const opening_options opens = games->turn_based() ? opening : opening_options{};
  return std::make_unique<seat_vector>(std::move(games), side, others(other), team, opens);
}

int rows_per_env(const env_config& config) {
  if (config.versus.seat != "all" || !is_game(config.id)) return 1;
  return int(team_agents(config, game_agents_of(config).names).size());
}

bool is_turn_based_game(const env_id& id) {
  if (id.source() == env_source::python) return true;
  for (const auto& e : registered_envs())
    if (e.id == id.text()) return bool(e.make_game);
  return false;
}

std::string turn_based_games() {
  std::string names;
  for (const auto& e : registered_envs())
    if (e.make_game) names += (names.empty() ? "" : ", ") + e.id;
  return names + (names.empty() ? "" : ", or ") + "python:MODULE:CALLABLE making a PettingZoo AEC game";
}

bool is_versus_game(const env_id& id) {
  if (is_turn_based_game(id)) return true;
  for (const auto& e : registered_envs())
    if (e.id == id.text()) return e.make_simultaneous && e.make_simultaneous(env_config{})->agent_count() == 2;
  return false;
}

bool is_game(const env_id& id) {
  if (id.source() == env_source::python) return true;
  for (const auto& e : registered_envs())
    if (e.id == id.text()) return e.make_game || e.make_simultaneous;
  return false;
}

std::string versus_games() {
  std::string names;
  for (const auto& e : registered_envs())
    if (is_versus_game(e.id)) names += (names.empty() ? "" : ", ") + e.id;
  return names + (names.empty() ? "" : ", or ") + "python:MODULE:CALLABLE making a PettingZoo AEC or Parallel game";
}

std::unique_ptr<env_vector> make_game_side(const env_config& config, int count, seat_choice side,
                                           const opponents_for& others, const opening_options& opening) {
  return side_of_games(make_game_vector(config, count), config, side, others, opening);
}

game_agents game_agents_of(const env_config& config) {
  // A Python game's vector reads its host's hello; no game is stepped to ask.
  const std::unique_ptr<game_vector> games = make_game_vector(config, 1);
  game_agents agents = agents_of(*games);
  agents.simultaneous = !games->turn_based();
  return agents;
}

env_spec game_spec_of(const env_config& config) { return game_spec_of(config, game_agents_of(config)); }

env_spec game_spec_of(const env_config& config, const game_agents& agents) {
  if (agents.names.size() < 2)
    throw env_key_error("env.id", config.id.text() + " is not a game of several agents (those are: " + versus_games() + ")");
  return *specs_of_side(agents.spec_list(), agents.names, parse_seat(config.versus.seat),
                        team_agents(config, agents.names))
              .own;
}

env_config with_playable_seat(env_config config) {
  if (config.versus.seat != "alternate" || !is_versus_game(config.id)) return config;
  if (game_agents_of(config).spaces_differ()) config.versus.seat = "first";
  return config;
}

std::unique_ptr<game_vector> make_game_vector(const env_config& config, int count) {
  if (config.id.source() == env_source::python)
    return std::make_unique<bridges::python::python_game_vector>(
        config, bridges::python::start_environment_hosts(config, count, bridges::python::host_serves::games));
  for (const auto& e : registered_envs()) {
    if (e.id != config.id.text()) continue;
    if (e.make_game) {
      std::vector<std::unique_ptr<turn_based_env>> games;
      for (int i = 0; i < count; ++i) games.push_back(e.make_game(config));
      return std::make_unique<native_game_vector>(std::move(games));
    }
    if (e.make_simultaneous) {
      std::vector<std::unique_ptr<simultaneous_env>> games;
      for (int i = 0; i < count; ++i) games.push_back(e.make_simultaneous(config));
      return std::make_unique<native_game_vector>(std::move(games));
    }
  }
  throw env_key_error("env.id", config.id.text() + " is not a game of several agents (those are: " + versus_games() + ")");
}

}  // namespace troupe::catalog
