#pragma once
// An agent's PettingZoo AEC games (env.id python:MODULE:CALLABLE making one;
// bridges/python/troupe_games.py reads the API), stepped in
// env.processes_per_agent processes of their own. A batch of moves or resets
// is one command per process, and its answer is each listed game's state
// after it (whose move, every agent's view, the mover's mask, what the move
// gave each agent, the end), kept here, so that a seat reads the games
// without a call out. Games of two or more agents, each agent with its own
// spaces.
#include <cstdint>
#include <string>
#include <vector>

#include "bridges/python/host_group.hpp"
#include "envs/env_config.hpp"
#include "games/turn_based_vector.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::env_spec;
using envs::rgb_frame;
using games::turn_based_vector;
using games::turn_result;

class python_game_vector final : public turn_based_vector {
 public:
  // Hosts started already, whose hello describes AEC games.
  python_game_vector(const env_config& config, host_group hosts);
  ~python_game_vector() override;

  const env_spec& spec() const override { return specs_.front(); }
  const env_spec& agent_spec(int agent) const override { return specs_.at(size_t(agent)); }
  int size() const override { return count_; }
  int agent_count() const override { return int(agents_.size()); }
  std::string agent_name(int agent) const override { return agents_.at(size_t(agent)); }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, turn_result* results) override;
  int to_move(int game) const override { return to_move_[size_t(game)]; }
  void observe(int game, int agent, float* observation) const override;
  void action_mask(int game, std::uint8_t* legal) const override;
  bool can_render() const override { return can_render_; }
  bool render(int game, rgb_frame& frame) override;
  // In copies of the games, in their processes (troupe_games.py).
  bool can_search() const override { return true; }
  void search_moves(const int* games, int n, int depth, const std::uint64_t* seeds, float* actions) override;

 private:
  // Sends each process its listed games' command (`extra` bytes a game after
  // the game indices, in order), then reads every listed game's state back.
  void exchange(host_op op, const char* what, const int* games, int n, const void* extra, size_t extra_bytes,
                turn_result* results);
  size_t record_bytes() const;

  host_group hosts_;
  std::vector<env_spec> specs_;  // each agent's
  std::vector<std::string> agents_;
  bool can_render_ = false;
  int count_ = 0;
  // Each agent's view's floats and where it begins among a game's views;
  // a game's views' floats; each agent's mask's size, and the room the
  // mover's takes in a record (the largest); a move's row's floats in a
  // command (the widest agent's).
  std::vector<size_t> view_sizes_, view_offsets_, mask_sizes_;
  size_t views_per_game_ = 0, mask_room_ = 0, step_width_ = 0;
  std::vector<int> to_move_;             // -1 once a game is over
  std::vector<float> views_;             // game x (agent 0's view, agent 1's, ...)
  std::vector<std::uint8_t> masks_;      // game x mask_room_ (the mover's)
  std::vector<float> padded_;            // a step's rows widened to step_width_
};

}  // namespace troupe::bridges::python
