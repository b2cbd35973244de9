#include "catalog/players.hpp"

#include <stdexcept>

#include "bridges/python/python_player.hpp"
#include "envs/env_id.hpp"
#include "games/builtin/builtin_players.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "games/builtin/contest_game.hpp"
#include "games/builtin/duel_pong.hpp"

namespace troupe::catalog {

using envs::env_config;
using envs::env_source;
using envs::env_spec;
using games::opponents;

void check_opponent_name(const std::string& name, const envs::env_id& game, const std::string& key) {
  const std::string prefix = "alphabeta:";
  if (name == "random") return;
  if (name == "track") {
    if (game.text() != games::duel_pong::id)
      throw std::invalid_argument(key + ": 'track' plays " + std::string(games::duel_pong::id) + " only, not " + game.text());
    return;
  }
  if (name == "split") {
    if (game.text() != games::contest_game::id)
      throw std::invalid_argument(key + ": 'split' plays " + std::string(games::contest_game::id) + " only, not " + game.text());
    return;
  }
  if (name.compare(0, prefix.size(), prefix) == 0) {
    if (name.size() != prefix.size() + 1 || name.back() < '1' || name.back() > '8')
      throw std::invalid_argument(key + ": '" + name + "': the depth of alphabeta is 1 to 8");
    if (game.text() != games::connect_four_game::id && game.source() != env_source::python)
      throw std::invalid_argument(key + ": '" + name + "' plays Connect Four (" + games::connect_four_game::id +
                                  ") and Python AEC games, not " + game.text());
    return;
  }
  if (name.compare(0, 7, "python:") == 0) {
    try {
      if (envs::env_id(name).source() == env_source::python) return;
    } catch (const std::exception&) {
    }
    throw std::invalid_argument(key + ": '" + name + "' is not python:MODULE:CALLABLE");
  }
  throw std::invalid_argument(key + ": '" + name +
                              "' is not an opponent (expected random, alphabeta:1 to alphabeta:8, track, split, or "
                              "python:MODULE:CALLABLE)");
}

namespace {

std::unique_ptr<opponents> unnamed_player(const std::string& name, int count, const env_config& env,
                                          const env_spec& spec, const std::string& key) {
  if (name == "random") return games::random_player(count, spec);
  if (name == "track") return games::tracking_player();
  if (name == "split") return games::splitting_team();
  if (name.compare(0, 7, "python:") == 0) return bridges::python::python_player(env, name, spec, key);
  if (!searches_games(name, spec.id)) return games::alphabeta_player(count, name.back() - '0');
  return games::search_player(count, name.back() - '0', spec.id);
}

}  // namespace

bool searches_games(const std::string& name, const std::string& game_id) {
  return name.compare(0, 10, "alphabeta:") == 0 && game_id != games::connect_four_game::id;
}

std::unique_ptr<opponents> builtin_opponents(const std::string& name, int count, const env_config& env,
                                             const env_spec& spec, const std::string& key) {
  check_opponent_name(name, spec.id, key);
  return games::named_player(name, unnamed_player(name, count, env, spec, key));
}

}  // namespace troupe::catalog
