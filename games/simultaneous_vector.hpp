#pragma once
// k simultaneous-move games (games/simultaneous_env.hpp) stepped together:
// what a side (games/side_vector.hpp) plays. Resets and steps come in batches
// of listed games, so a vector whose games live elsewhere (a Python process,
// bridges/python/python_parallel_vector.hpp) answers a batch in one round trip;
// each agent's view and mask are read from the vector without a call out.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/render.hpp"
#include "games/simultaneous_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::rgb_frame;

class simultaneous_vector {
 public:
  virtual ~simultaneous_vector() = default;
  // What the games are and what agent 0 observes and does.
  virtual const env_spec& spec() const = 0;
  // What `agent` observes and does, in every game (simultaneous_env's).
  virtual const env_spec& agent_spec(int agent) const { return spec(); }
  virtual int size() const = 0;
  virtual int agent_count() const = 0;
  virtual std::string agent_name(int agent) const = 0;

  // Game games[i] begins anew with seeds[i], for i < n.
  virtual void reset(const int* games, int n, const std::uint64_t* seeds) = 0;
  // Game games[i] steps with row i of `actions` (agent_count() actions,
  // agent after agent, agent a's of agent_spec(a).action.flat_size() floats);
  // results[i] is what the step gave each agent.
  virtual void step(const int* games, int n, const float* actions, joint_result* results) = 0;
  virtual void observe(int game, int agent, float* observation) const = 0;
  virtual void action_mask(int game, int agent, std::uint8_t* legal) const {}
  virtual bool can_render() const { return false; }
  virtual bool render(int game, rgb_frame& frame) { return false; }
};

// Games of this process, one object each.
class native_simultaneous_vector final : public simultaneous_vector {
 public:
  explicit native_simultaneous_vector(std::vector<std::unique_ptr<simultaneous_env>> games);

  const env_spec& spec() const override { return games_.front()->spec(); }
  const env_spec& agent_spec(int agent) const override { return games_.front()->agent_spec(agent); }
  int size() const override { return int(games_.size()); }
  int agent_count() const override { return games_.front()->agent_count(); }
  std::string agent_name(int agent) const override { return games_.front()->agent_name(agent); }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, joint_result* results) override;
  void observe(int game, int agent, float* observation) const override {
    games_[size_t(game)]->observe(agent, observation);
  }
  void action_mask(int game, int agent, std::uint8_t* legal) const override {
    games_[size_t(game)]->action_mask(agent, legal);
  }
  bool can_render() const override;
  bool render(int game, rgb_frame& frame) override;

 private:
  std::vector<std::unique_ptr<simultaneous_env>> games_;
};

}  // namespace troupe::games
