#pragma once
// Games by id (catalog/registry.hpp's table, or a Python id): which ids are
// games, their agents and the spaces of a side, and one side of k of them
// as an agent steps it (games/seat_vector.hpp), whoever plays the others.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"
#include "games/game_vector.hpp"
#include "games/opponents.hpp"
#include "games/seats.hpp"

namespace troupe::catalog {

using envs::env_config;
using envs::env_spec;
using envs::env_vector;
using envs::opening_options;
using envs::same_spaces;
using games::game_vector;
using games::opponents;
using games::seat_choice;

// With env.seat all or alternate, the indices of the agents among `names`
// (a game's, in agent order) that env.team names, every agent when it
// names none: the team a side plays, or the agents its seat is drawn
// among; empty otherwise. Throws env_key_error naming env.team
// when a pattern names no agent.
std::vector<int> team_agents(const env_config& config, const std::vector<std::string>& names);
// The rows of that vector a game (or an environment): every agent of a game
// that env.seat all plays as a team (its game made once, to ask), else 1.
int rows_per_env(const env_config& config);
// Whether `id` may be a turn-based game: a registered one, or a Python id
// (whose host says at its start whether it made a PettingZoo AEC game);
// and what those are, in words.
bool is_turn_based_game(const envs::env_id& id);
std::string turn_based_games();
// Whether `id` may be a game that a policy plays from one seat, the others
// played by an opponent (env.opponent, self-play, eval --opponent, a
// person): a turn-based game of any number of agents, or a simultaneous
// game of two; and what those are, in words.
bool is_versus_game(const envs::env_id& id);
std::string versus_games();
// Whether `id` may be a game of several agents: a registered game of any
// number of agents, or a Python id.
bool is_game(const envs::env_id& id);
// What plays the other side of a game whose spec is given.
using opponents_for = std::function<std::unique_ptr<opponents>(const env_spec& game)>;
// One side of `count` of config's games, as an agent steps it (a
// seat_vector), the agents outside the side played by what `others` makes. Throws
// env_key_error naming env.id when config's environment is no game.
// `opening`: a turn-based game's random openings (training's; none by
// default, as evaluation and play want; a simultaneous game has none).
std::unique_ptr<env_vector> make_game_side(const env_config& config, int count, seat_choice side,
                                           const opponents_for& others, const opening_options& opening = {});
// The same of games made already (a Python host that was asked for an
// environment and made a game, say).
std::unique_ptr<env_vector> side_of_games(std::unique_ptr<game_vector> games, const env_config& config,
                                          seat_choice side, const opponents_for& others,
                                          const opening_options& opening = {});
// A game's agents in seat order: their ids ("player_0", "player_1") and
// their spaces. A Python id that made an environment rather than a game
// has none.
struct game_agents {
  std::vector<std::string> names;
  std::vector<env_spec> specs;
  bool simultaneous = false;  // every agent acts at each step (else one at a time)
  // Agents whose spaces are not alike: one policy cannot play them all.
  bool spaces_differ() const {
    for (const env_spec& s : specs)
      if (!same_spaces(specs.front(), s)) return true;
    return false;
  }
  // The agents' specs, in order, for specs_of_side.
  std::vector<const env_spec*> spec_list() const {
    std::vector<const env_spec*> out;
    for (const env_spec& s : specs) out.push_back(&s);
    return out;
  }
};
// Config's game's agents (the game made once, to ask); throws env_key_error
// naming env.id when it is not a game.
game_agents game_agents_of(const env_config& config);
// `config`, or where its env.seat alternates between the seats of a game
// whose agents' spaces differ (which is refused), the same at the first
// seat: how a benchmark of every registered environment plays each.
env_config with_playable_seat(env_config config);
// The spec of the side env.seat plays (agent 0's for alternate); throws
// env_key_error naming env.seat when that alternates between agents of
// different spaces (specs_of_side).
env_spec game_spec_of(const env_config& config);
// The same of a game whose agents were read already.
env_spec game_spec_of(const env_config& config, const game_agents& agents);
// `count` of `config`'s games, turn-based or simultaneous, native or
// Python; throws env_key_error naming env.id when it is no game. (As an
// env, a game is one seat of it against env.opponent: make_env_vector.)
std::unique_ptr<game_vector> make_game_vector(const env_config& config, int count);

}  // namespace troupe::catalog
