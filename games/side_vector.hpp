#pragma once
// One policy's side of k simultaneous-move games (games/simultaneous_vector.hpp),
// seen as the vector of environments an agent steps. A side is the agents
// the learning policy plays in each game: one seat (env.seat first, second,
// or drawn per episode) or every agent of it (env.seat all: a team of one
// policy, its parameters shared, trained on every agent's experience). Row
// r is game r / m from its (r % m)-th agent of the side, m the side's size.
// The agents outside the side are played by `opponents`
// (games/seat_vector.hpp's: a built-in player, another policy, or the
// snapshots of self-play), all of them in all k games asked for together,
// from the same state the policy saw. A step is one step of every game
// with every agent's action, the games stepped in one batch; a row's reward
// is what its agent got.
//
// Agents may leave a game before it ends (joint_result::left). An agent
// outside the side that leaves is no longer asked, and the side plays on
// without it. When an agent of the side leaves, its row's episode ends as
// its agent's did; the game cannot go on for that row alone, so its other
// rows of the side are cut there (truncated: their values bootstrap) and
// the game is reset.
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/env_vector.hpp"
#include "games/seat_vector.hpp"
#include "games/simultaneous_vector.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::env_vector;
using envs::other_seat_view;
using envs::rgb_frame;
using envs::step_result;

class side_vector final : public env_vector {
 public:
  // `sides`: first is agent 0, second agent 1, alternate one agent of
  // `team` drawn per episode from its seed, all the agents `team` lists (in
  // its order; empty: every agent). specs_of_side says which agents' spaces must be
  // alike.
  side_vector(std::unique_ptr<simultaneous_vector> games, seat_choice sides, std::unique_ptr<opponents> others,
              std::vector<int> team = {});
  // Games of this process (a native_simultaneous_vector of them).
  side_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice sides,
              std::unique_ptr<opponents> others, std::vector<int> team = {});

  // The side's spaces (every agent of it has them).
  const env_spec& spec() const override { return *specs_.own; }
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
  // Row i's game's first agent outside the side.
  bool other_seat(int i, other_seat_view& view) const override;

  // The agent the side plays in game g this episode, where the side is one
  // agent a game (agent 0 is the first).
  int side(int g) const { return agent_of_row(g); }
  // The side's agents a game: 1, or its team's with env.seat all.
  int agents_per_game() const { return per_game_; }

 private:
  // The agent row r plays this episode.
  int agent_of_row(int r) const { return rows_agent_[size_t(r)]; }
  bool in_side(int g, int agent) const { return in_side_[size_t(g * agents_ + agent)] != 0; }
  // Resets the listed games (seeds[i] for games[i]).
  void begin(const std::vector<int>& games, const std::uint64_t* seeds);
  // Writes each row's view of its game.
  void observe_rows(float* observations) const;

  std::unique_ptr<simultaneous_vector> games_;
  seat_choice choice_;
  std::unique_ptr<opponents> others_;
  side_specs specs_;
  side_sizes own_, other_;  // an agent of the side's, an agent outside it's
  int agents_ = 0, per_game_ = 1;
  std::vector<int> team_;                // with all: the side's agents, in row order
  std::vector<size_t> action_at_;        // where each agent's action begins in a joint row
  size_t joint_width_ = 0;
  std::vector<int> rows_agent_;          // row -> its agent this episode
  std::vector<std::uint8_t> in_side_;    // game x agent: the side plays it
  std::vector<std::uint8_t> gone_;       // game x agent: an agent outside the side that left
  std::vector<double> returns_;          // each row's return this episode
  std::vector<std::uint8_t> over_;       // by game
  std::vector<std::uint8_t> moved_;      // by game: its others have moved this episode
  // The batches, reused: by game x agent the others' last actions and
  // masks; packed, the rows asked of the opponents.
  std::vector<int> all_, asked_games_, asked_agents_;
  std::vector<float> asked_obs_, other_actions_, answers_, joint_;
  std::vector<std::uint8_t> other_masks_, asked_masks_;
  std::vector<joint_result> results_;
};

}  // namespace troupe::games
