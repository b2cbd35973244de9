#pragma once
// troupe play RUN --human: a person plays a game against the trained
// policy in the SDL2 window. The person's seat is one agent of one game
// (catalog::make_game_side) whose every other agent the trained policy plays
// (agents::model_opponents): the other player of a two-player game, the two
// others of Nim3-v0, or in a team's game (env.seat all) the person's
// teammates and the other side alike. In a turn-based game the game waits for the
// person's move: a click on the picture (renderable::action_at: a column of
// Connect Four) or a digit key (1 is the first action, 0 the tenth). A
// simultaneous game moves on at the window's rate and takes the keys held at
// each step: up and down (arrows, or w and s) where its actions are named
// up, down and one of stay / noop / none / idle (Duel Pong), otherwise the
// last digit pressed, kept until another. The panel shows the policy's
// probabilities for its last move, and the person's legal moves.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/local_playback.hpp"
#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::app {

// The person's moves, read from the window.
class human_policy final : public playback_policy {
 public:
  // How the person's moves come: one when it is their turn, or the keys
  // held at every step of a game that does not wait.
  enum class pace { turns, real_time };

  // `env`: the person's seat (drawn, masked); `seed`: episode i resets with
  // agents::episode_rng(seed, i)'s first draw, as troupe eval's episodes do.
  human_policy(const envs::env& env, std::uint64_t seed, pace moves = pace::turns);

  std::uint64_t start_episode(long episode) override;
  // Turns: true once the window has given a legal move; moves that are not
  // one are ignored, said on the terminal. Real time: always, the move being
  // the keys held now.
  bool ready(viewer::viewer_window& window, viewer::overlay_info& info) override;
  void act(const float* observation, float* action, viewer::overlay_info& info) override;

  // The trained policy's last move, for the panel (a move_watcher), in the
  // spaces of the seat it plays (`policy_seat`: the person's unless the
  // game's agents differ).
  void policy_moved(const float* policy, const float* action, const std::uint8_t* legal);
  void set_policy_seat(const envs::env_spec& policy_seat) { policy_seat_ = policy_seat; }

  // Real time: whether the arrows move (the game names its actions up, down
  // and an idle one), else digits choose; what the panel tells the person.
  bool moves_by_arrows() const { return up_ >= 0; }
  std::string how_to_move() const;

 private:
  // The action `in` means here, or -1.
  int action_of(const viewer::player_input& in) const;
  bool legal(int action) const;
  bool ready_in_turn(viewer::viewer_window& window, viewer::overlay_info& info);
  bool ready_in_real_time(viewer::viewer_window& window, viewer::overlay_info& info);
  // The panel's action fields: the policy's last move, what it thought of each.
  void show_reply(viewer::overlay_info& info) const;

  const envs::env& env_;
  const envs::renderable* picture_;
  int choices_;
  std::uint64_t seed_;
  pace pace_;
  int up_ = -1, down_ = -1, idle_ = -1;  // the actions the arrows choose, in real time
  int kept_ = 0;                         // real time without arrows: the last digit's action
  int pending_ = -1;  // the person's move, until act() takes it
  viewer::overlay_info last_reply_;  // the policy's last move, drawn in the panel
  envs::env_spec policy_seat_;       // the policy's spaces (none set: the person's)
};

struct human_play_options {
  std::string seat = "alternate";  // the person's: first, second, third, ... or alternate
  bool greedy = false;             // the policy's most likely moves
  double fps = 30.0;               // steps per second of a simultaneous game at speed x1
  std::uint64_t seed = 12345;
  long episodes = 0;
  window_flags window;
};

// Plays in the window until it closes (or the episodes are done). Throws
// config_error when the run's environment is not a game of several agents
// with discrete actions.
void play_against(const std::string& target, bool best, const std::string& policy,
                  const human_play_options& options);

}  // namespace troupe::app
