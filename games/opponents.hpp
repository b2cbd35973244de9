#pragma once
// Who plays the seats of a game that the learning policy does not
// (games/seat_vector.hpp asks it): a built-in player, another policy, the
// snapshots of self-play, a cluster's remote worker.
#include <cstdint>
#include <optional>
#include <string>

#include "envs/env_vector.hpp"
#include "games/game_vector.hpp"

namespace troupe::games {

using envs::other_seat_view;

class opponents {
 public:
  virtual ~opponents() = default;
  // The games it plays in, given once before any move (a player that looks
  // ahead searches them); `games` outlives it.
  virtual void play_in(game_vector& games) {}
  // Game `game` begins an episode: who plays it is chosen now; `seed` is
  // for whatever the choice or the play draws.
  virtual void start_episode(int game, std::uint64_t seed) = 0;
  // Actions for `rows` positions: row r is game games[r]'s position as
  // agent agents[r] (0 moves first), one that acts now, sees it
  // (observations: rows x the observation's floats; masks: rows x the
  // action's choices, or null), into `actions` (rows x the action's
  // floats). Players of one seat may ignore the agents; seats played by
  // different players are routed by them (games/routed_opponents.hpp), and
  // a recurrent player keeps a state per game and agent.
  virtual void act(const int* games, const int* agents, int rows, const float* observations,
                   const std::uint8_t* masks, float* actions) = 0;
  // Game `game`'s episode ended with the learning seat's return
  // `learner_return` (for a team, its agents' mean).
  virtual void end_episode(int game, double learner_return) {}
  // Who plays game `game`'s other seat this episode, into view.who, and,
  // when a policy made its last move in the watched game, that policy's
  // outputs there into view.policy.
  virtual void describe(int game, other_seat_view& view) const {}
  // A player that searches the games themselves (catalog/players.hpp's
  // searches_games), drawn at game `game`'s start
  // by an object that was never given the games (play_in): the learner's
  // node, moving for a cluster worker's games. It cannot play there, so
  // its name and seed go to whoever holds the games, and the game's rows
  // are left unanswered here. None when this object plays the game.
  struct handed_over {
    std::string player;
    std::uint64_t seed = 0;
  };
  virtual std::optional<handed_over> handed_over_at_start(int game) const { return std::nullopt; }
  // A viewer watches an agent's env 0: a policy that plays its other seat
  // asks its model-owner for that row's outputs too.
  static constexpr int watched_game = 0;
};

}  // namespace troupe::games
