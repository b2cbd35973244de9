#pragma once
// One policy's seat at k turn-based games (games/turn_based_vector.hpp), seen
// as the vector of environments an agent steps: row g is game g from the
// seat the learning policy plays there, and the other seats are played by
// `opponents` (a built-in player, or the snapshots of self-play). A step
// is the policy's move in every game and then the others' moves until it
// is the policy's turn again or the game ends, the others' moves of all
// games asked for together, round by round, so that a network opponent
// answers a batch. The reward of a step is everything the policy's seat
// was given from its move up to its next one: a loss arrives on the
// winner's move and is credited to the step that allowed it. The policy's
// time is its own moves (PettingZoo's agent-centred view): discounting
// counts its steps, not the others' moves.
//
// A game may have more than two agents: the policy plays one seat and one
// opponents object plays all the others (their spaces alike), each of
// their moves asked for as it comes. When the policy's agent leaves before
// the game ends (eliminated: turn_result::left), its episode ends there and
// the game is reset; an agent of the others that leaves is simply never
// the mover again.
//
// With a random opening (envs/env_config.hpp: opening_options) an episode
// may begin with legal moves drawn at random for whoever is to move: they
// are no one's steps, and what they bring is credited to no one.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"
#include "games/turn_based_vector.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::env_vector;
using envs::opening_options;
using envs::other_seat_view;
using envs::rgb_frame;
using envs::step_result;

// Who plays the seats the learning policy does not.
class opponents {
 public:
  virtual ~opponents() = default;
  // The games it plays in, given once before any move (a player that looks
  // ahead searches them); `games` outlives it.
  virtual void play_in(turn_based_vector& games) {}
  // Game `game` begins an episode: who plays it is chosen now; `seed` is
  // for whatever the choice or the play draws.
  virtual void start_episode(int game, std::uint64_t seed) = 0;
  // Moves for `rows` positions: row r is game games[r]'s position as its
  // mover, agent agents[r] (0 moves first), sees it (observations: rows x
  // the observation's floats; masks: rows x the action's choices, or null),
  // into `actions` (rows x the action's floats). Players of one seat may
  // ignore the agents; seats played by different players are routed by
  // them (games/routed_opponents.hpp), and a recurrent player keeps a state
  // per game and agent.
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

// Which seat the learning policy plays: one drawn per episode from its
// seed (alternate, among all the game's agents), a fixed one (its agent's
// index: first is agent 0, the first mover, second agent 1, and so on,
// seat_at(k) for agent k), or, in a simultaneous game, every agent's at
// once (a team of one policy: games/side_vector.hpp).
enum class seat_choice : int { alternate = -1, all = -2, first = 0, second = 1 };
// The fixed seat of agent `agent` (0 or more).
seat_choice seat_at(int agent);
// The agent a fixed seat plays, or -1 for alternate and all.
int seat_agent(seat_choice seat);
// A fixed seat's name: "first", "second", "third", ... "tenth".
std::string seat_name(int agent);
// "alternate", "all", or a fixed seat by name (seat_name's, "first" to
// "tenth"); throws std::invalid_argument naming env.seat.
seat_choice parse_seat(const std::string& text);

// The spaces of a game's sides as `seats` plays them (specs and names in
// agent order; agent 0 moves first): the learning side's and the other
// side's. The side's agents must share their spaces (one policy plays
// them), and so must the agents outside it (one player plays them); `all`
// leaves none outside (`other` is then the side's own). With `all`, `team`
// lists the agents the side plays, and with `alternate` those it draws
// among (empty: every agent). Throws
// env_key_error naming env.seat when spaces that must be alike differ, or
// the game has no such seat.
struct side_specs {
  const env_spec* own;
  const env_spec* other;
};
side_specs specs_of_side(const std::vector<const env_spec*>& agents, const std::vector<std::string>& names,
                         seat_choice seats, const std::vector<int>& team = {});

// The agents of a game of `agents` that a side's `team` lists: every agent
// when it lists none and `seats` is all or alternate (the team it plays,
// or the agents its seat is drawn among). Throws std::invalid_argument,
// naming `who`, for an agent out of range or listed twice.
std::vector<int> checked_team(std::vector<int> team, int agents, seat_choice seats, const std::string& who);

// What one side's rows hold: its view's floats, its action's, and its
// mask's choices (0 without a mask).
struct side_sizes {
  int obs = 0, action = 0, mask = 0;
  side_sizes() = default;
  explicit side_sizes(const env_spec& s);
};

class seat_vector final : public env_vector {
 public:
  // Games of two or more agents; when the agents' spaces differ, `seats` is
  // a fixed seat and the others' spaces are alike (specs_of_side).
  // alternate draws among `team`'s agents (empty: every agent). An
  // `opening` with a probability needs every agent's actions discrete
  // (throws env_key_error naming selfplay.random_opening).
  seat_vector(std::unique_ptr<turn_based_vector> games, seat_choice seats, std::unique_ptr<opponents> others,
              std::vector<int> team = {}, opening_options opening = {});
  // Games of this process (a native_turn_vector of them).
  seat_vector(std::vector<std::unique_ptr<turn_based_env>> games, seat_choice seats,
              std::unique_ptr<opponents> others, std::vector<int> team = {}, opening_options opening = {});

  // The learning seat's spaces.
  const env_spec& spec() const override { return *sides_.own; }
  int size() const override { return games_->size(); }
  void reset(const std::uint64_t* seeds, float* observations) override;
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  void action_masks(std::uint8_t* masks) const override;
  bool can_render() const override;
  bool render(int i, rgb_frame& frame) override;
  int action_at(int i, double u, double v) const override { return games_->action_at(i, u, v); }
  bool other_seat(int i, other_seat_view& view) const override;

  // The seat the learning policy plays in game g this episode (0 moves first).
  int seat(int g) const { return seats_[size_t(g)]; }
  const turn_based_vector& games() const { return *games_; }
  opponents& others() { return *others_; }

 private:
  // Resets the listed games (seeds[i] for games[i]); the others' opening
  // moves are play_others' to make.
  void begin(const std::vector<int>& games, const std::uint64_t* seeds);
  // The random openings of the listed games: game games[i] opens with
  // opening_.max_moves or fewer random moves or none, as draws[i] decides.
  void play_openings(const std::vector<int>& games, const std::vector<std::uint64_t>& draws);
  // Plays the others' moves of the listed games, all games together, until
  // each is at the learning seat's turn or over.
  void play_others(const std::vector<int>& games);
  // begin and play_others, until each listed game is at the learning seat's
  // first move (one that ended before it starts again).
  void start(std::vector<int> games, std::vector<std::uint64_t> seeds);
  static constexpr int max_restarts = 1000;
  // Credits game g's move: the learning seat's share, and the game's end.
  void take(int g, const turn_result& result);

  std::unique_ptr<turn_based_vector> games_;
  seat_choice choice_;
  std::unique_ptr<opponents> others_;
  std::vector<int> team_;  // the agents alternate draws among
  opening_options opening_;
  // Each agent's kind: the first agent with the same spaces (movers of a
  // kind are stepped in one batch).
  std::vector<int> mover_kinds_;
  side_specs sides_;
  side_sizes own_, other_;  // the learning seat's, the other seat's
  std::vector<int> seats_;
  std::vector<double> pending_;  // the learning seat's reward since its last move
  std::vector<double> returns_;  // its return this episode
  std::vector<std::uint8_t> over_, truncated_;
  // Each game's other seat's last move this episode and its mask.
  std::vector<float> last_moves_;
  std::vector<std::uint8_t> last_masks_, moved_;
  // play_others' batch, reused: the games and the agent to move in each.
  std::vector<int> movers_, mover_agents_;
  std::vector<float> batch_obs_, batch_actions_;
  std::vector<std::uint8_t> batch_masks_;
  std::vector<turn_result> batch_results_;
};

}  // namespace troupe::games
