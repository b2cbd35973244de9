#pragma once
// An agent's PettingZoo games (env.id python:MODULE:CALLABLE making one),
// AEC (turn-based) or Parallel (simultaneous) as their hosts say
// (bridges/python/troupe_games.py reads both APIs), stepped in
// env.processes_per_agent processes of their own. A batch of steps or
// resets is one command per process, and its answer is each listed game's
// state after it (whose move, every agent's view and mask, what the step
// gave each agent, the end), kept here, so that a seat reads the games
// without a call out. Games of two or more agents, each agent with its own
// spaces; both kinds speak one record (host_protocol.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "bridges/python/host_group.hpp"
#include "envs/env_config.hpp"
#include "games/game_vector.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::env_spec;
using envs::rgb_frame;
using games::game_result;
using games::game_vector;

class python_game_vector final : public game_vector {
 public:
  // Hosts started already, whose hello describes AEC or Parallel games.
  python_game_vector(const env_config& config, host_group hosts);
  ~python_game_vector() override;

  const env_spec& spec() const override { return specs_.front(); }
  const env_spec& agent_spec(int agent) const override { return specs_.at(size_t(agent)); }
  int size() const override { return count_; }
  int agent_count() const override { return int(agents_.size()); }
  std::string agent_name(int agent) const override { return agents_.at(size_t(agent)); }
  bool turn_based() const override { return turn_based_; }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, game_result* results) override;
  int to_move(int game) const override { return turn_based_ ? to_move_.at(size_t(game)) : -1; }
  void observe(int game, int agent, float* observation) const override;
  void action_mask(int game, int agent, std::uint8_t* legal) const override;
  bool can_render() const override { return can_render_; }
  bool render(int game, rgb_frame& frame) override;
  // In copies of the games, in their processes (troupe_games.py): AEC games.
  bool can_search() const override { return turn_based_; }
  void search_moves(const int* games, int n, int depth, const std::uint64_t* seeds, float* actions) override;

 private:
  // Sends each process its listed games' command (`extra` bytes a game after
  // the game indices, in order), then reads every listed game's state back.
  void exchange(host_op op, const char* what, const int* games, int n, const void* extra, size_t extra_bytes,
                game_result* results);
  // Throws std::logic_error for a listed game that is over.
  void check_going(const int* games, int n, const char* doing) const;

  host_group hosts_;
  bool turn_based_ = false;
  std::vector<env_spec> specs_;  // each agent's
  std::vector<std::string> agents_;
  bool can_render_ = false;
  int count_ = 0;
  // Each agent's view's floats and where it begins among a game's views,
  // and the same of its mask's choices and of its action among a step's
  // row (every agent's actions in turn, as the host reads a step).
  std::vector<size_t> view_sizes_, view_offsets_, mask_sizes_, mask_offsets_, action_offsets_;
  size_t views_per_game_ = 0, masks_per_game_ = 0, row_width_ = 0;
  std::vector<int> to_move_;             // the mover, 0 in a Parallel game; -1 once a game is over
  std::vector<float> views_;             // game x (agent 0's view, agent 1's, ...)
  std::vector<std::uint8_t> masks_;      // game x (agent 0's mask, agent 1's, ...)
  std::vector<float> rows_;              // a step's rows as the host reads them
};

}  // namespace troupe::bridges::python
