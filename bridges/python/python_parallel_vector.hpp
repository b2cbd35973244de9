#pragma once
// An agent's PettingZoo Parallel games (env.id python:MODULE:CALLABLE making
// one; bridges/python/troupe_games.py's ParallelHost reads the API), stepped in
// env.processes_per_agent processes of their own: a batch of steps or resets
// is one command per process, and its answer is each listed game's state
// after it (every agent's view and mask, what the step gave each, the end),
// kept here. Games of two or more agents, each agent with its own spaces.
#include <cstdint>
#include <string>
#include <vector>

#include "bridges/python/host_group.hpp"
#include "envs/env_config.hpp"
#include "games/simultaneous_vector.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::env_spec;
using envs::rgb_frame;
using games::joint_result;
using games::simultaneous_vector;

class python_parallel_vector final : public simultaneous_vector {
 public:
  // Hosts started already, whose hello describes Parallel games.
  python_parallel_vector(const env_config& config, host_group hosts);
  ~python_parallel_vector() override;

  const env_spec& spec() const override { return specs_.front(); }
  const env_spec& agent_spec(int agent) const override { return specs_.at(size_t(agent)); }
  int size() const override { return count_; }
  int agent_count() const override { return int(agents_.size()); }
  std::string agent_name(int agent) const override { return agents_.at(size_t(agent)); }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, joint_result* results) override;
  void observe(int game, int agent, float* observation) const override;
  void action_mask(int game, int agent, std::uint8_t* legal) const override;
  bool can_render() const override { return can_render_; }
  bool render(int game, rgb_frame& frame) override;

 private:
  void exchange(host_op op, const char* what, const int* games, int n, const void* extra, size_t extra_bytes,
                joint_result* results);

  host_group hosts_;
  std::vector<env_spec> specs_;  // each agent's
  std::vector<std::string> agents_;
  bool can_render_ = false;
  int count_ = 0;
  // Each agent's view's floats and mask's bytes, and where each begins
  // among a game's; a game's in all; a step's row's floats (each agent's
  // action in turn).
  std::vector<size_t> view_sizes_, view_offsets_, mask_sizes_, mask_offsets_;
  size_t views_per_game_ = 0, masks_per_game_ = 0, row_width_ = 0;
  std::vector<float> views_;          // game x (each agent's view in turn)
  std::vector<std::uint8_t> masks_;   // game x (each agent's mask in turn)
};

}  // namespace troupe::bridges::python
