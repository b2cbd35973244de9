#pragma once
// One policy's seats at k games of several agents (games/game_vector.hpp),
// turn-based or simultaneous, seen as the vector of environments an agent
// steps. The policy's side is one seat of each game (env.seat first,
// second, ... or drawn per episode) or, in a simultaneous game, every agent
// of its team (env.seat all: one policy, its parameters shared, trained on
// every agent's experience). Row r is game r / m from its (r % m)-th agent
// of the side, m the side's size (1 for a seat). The agents outside the
// side are played by `opponents` (games/opponents.hpp), the rows of all k
// games asked for together, round by round, so that a network opponent
// answers a batch.
//
// A step is one step of every game with every acting agent's action: in a
// simultaneous game the side's and the others', the others asked from the
// state the policy saw; in a turn-based game the policy's move, and then
// the others' moves until it is the policy's turn again or the game ends.
// The reward of a row's step is everything its agent was given from its
// action up to its next one: in a turn-based game a loss arrives on the
// winner's move and is credited to the step that allowed it. The policy's
// time is its own moves (PettingZoo's agent-centred view): discounting
// counts its steps, not the others' moves.
//
// Agents may leave a game before it ends (game_result::left). An agent
// outside the side that leaves is no longer asked (a simultaneous game
// gets zeros for it), and the side plays on without it. When an agent of
// the side leaves, its row's episode ends as its agent's did; the game
// cannot go on for that row alone, so its other rows of the side are cut
// there (truncated: their values bootstrap) and the game is reset.
//
// With a random opening (envs/env_config.hpp: opening_options) an episode
// may begin with legal actions drawn at random for whoever acts: they are
// no one's steps, and what they bring is credited to no one.
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"
#include "games/game_vector.hpp"
#include "games/opponents.hpp"
#include "games/seats.hpp"

namespace troupe::games {

using envs::env_vector;
using envs::opening_options;
using envs::step_result;

class seat_vector final : public env_vector {
 public:
  // Games of two or more agents. `seats`: a fixed seat, alternate (one
  // agent of `team` drawn per episode from its seed; empty: every agent),
  // or, for simultaneous games, all (the agents `team` lists, in its order;
  // empty: every agent). specs_of_side says which agents' spaces must be
  // alike. An `opening` with a probability needs every agent's actions
  // discrete (throws env_key_error naming selfplay.random_opening).
  seat_vector(std::unique_ptr<game_vector> games, seat_choice seats, std::unique_ptr<opponents> others,
              std::vector<int> team = {}, opening_options opening = {});
  // Games of this process (a native_game_vector of them).
  seat_vector(std::vector<std::unique_ptr<turn_based_env>> games, seat_choice seats,
              std::unique_ptr<opponents> others, std::vector<int> team = {}, opening_options opening = {});
  seat_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice seats,
              std::unique_ptr<opponents> others, std::vector<int> team = {});

  // The side's spaces (every agent of it has them).
  const env_spec& spec() const override { return *sides_.own; }
  int size() const override { return games_->size() * per_game_; }
  // Seeds by row: a game draws from its first row's.
  void reset(const std::uint64_t* seeds, float* observations) override;
  // One row's game anew; only where the side is one agent a game (a team's
  // rows are one game and cannot start apart: throws std::logic_error).
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  void action_masks(std::uint8_t* masks) const override;
  bool can_render() const override { return games_->can_render(); }
  // Row i shows its game.
  bool render(int i, rgb_frame& frame) override { return games_->render(i / per_game_, frame); }
  int action_at(int i, double u, double v) const override { return games_->action_at(i / per_game_, u, v); }
  // Row i's game's agent outside the side that acted last (in a
  // simultaneous game, the first of them).
  bool other_seat(int i, other_seat_view& view) const override;

  // The agent the side plays in game g this episode (its first, for a
  // team; 0 moves first).
  int seat(int g) const { return agent_of_row(g * per_game_); }
  // The side's agents a game: 1, or its team's with env.seat all.
  int agents_per_game() const { return per_game_; }
  const game_vector& games() const { return *games_; }
  opponents& others() { return *others_; }

 private:
  int agent_of_row(int r) const { return rows_agent_[size_t(r)]; }
  bool in_side(int g, int agent) const { return in_side_[slot(g, agent)] != 0; }
  size_t slot(int g, int agent) const { return size_t(g) * size_t(agents_) + size_t(agent); }
  // Resets the listed games (seeds[i] for games[i]); their random
  // openings are played here.
  void begin(const std::vector<int>& games, const std::uint64_t* seeds);
  // The random openings of the listed games: game games[i] opens with
  // opening_.max_moves or fewer random steps or none, as draws[i] decides.
  void play_openings(const std::vector<int>& games, const std::vector<std::uint64_t>& draws);
  // One step of each listed game: its side's acting agents play their rows
  // of `own` (null when none of them acts), the others that act are asked,
  // every game's together.
  void step_games(const std::vector<int>& games, const float* own);
  // The others' steps of the listed games, all games together, until each
  // is at a step of the side's or over.
  void play_others(const std::vector<int>& games);
  // begin and play_others, until each listed game is at the side's first
  // step (one that ended before it starts again).
  void start(std::vector<int> games, std::vector<std::uint64_t> seeds);
  static constexpr int max_restarts = 1000;
  // Credits game g's step to the side's rows: their shares, and the end.
  void take(int g, const game_result& result);
  // Writes each row's view of its game.
  void observe_rows(float* observations) const;

  std::unique_ptr<game_vector> games_;
  seat_choice choice_;
  std::unique_ptr<opponents> others_;
  std::vector<int> team_;  // with all: the side's agents, in row order; with alternate: those drawn among
  opening_options opening_;
  side_specs sides_;
  side_sizes own_, other_;  // an agent of the side's, an agent outside it's
  int agents_ = 0, per_game_ = 1;
  std::vector<std::vector<int>> categories_;  // each agent's action's choices, for random openings
  std::vector<int> rows_agent_;        // row -> its agent this episode
  std::vector<std::uint8_t> in_side_;  // game x agent: the side plays it
  std::vector<std::uint8_t> gone_;     // game x agent: an agent outside the side that left
  std::vector<double> pending_;        // each row's reward since its last step
  std::vector<double> returns_;        // each row's return this episode
  std::vector<std::uint8_t> truncated_;  // each row's episode, once its game is over: cut rather than ended
  std::vector<std::uint8_t> over_;     // by game
  // By game x agent, the others' last actions and masks this episode; by
  // game, the agent whose to show (-1 until one of them has acted).
  std::vector<float> other_actions_;
  std::vector<std::uint8_t> other_masks_;
  std::vector<int> shown_;
  // The batches, reused: the rows asked of the opponents, the games' steps.
  std::vector<int> asked_games_, asked_agents_, movers_;
  std::vector<float> asked_obs_, answers_, joint_;
  std::vector<std::uint8_t> asked_masks_;
  std::vector<game_result> results_;
};

}  // namespace troupe::games
