#pragma once
// An agent's environments, stepped together: k environments of one spec that
// take k actions and give k results per call. The native vector steps env
// objects on the calling thread; a Python vector (bridges/python/) hands the
// whole step to a process of its own, so that one call is one round trip;
// a plugin (bridges/plugin/) calls its C functions.
//
// An environment whose episode ends during a step is reset at once with the
// seed the caller gave for it (when the caller gave seeds), so the next
// observation of that row is the new episode's first; the observation that
// ended the episode is kept for the caller (the bootstrap state of a
// truncated episode).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::envs {

class env_vector {
 public:
  virtual ~env_vector() = default;

  virtual const env_spec& spec() const = 0;
  virtual int size() const = 0;

  // Starts an episode in every environment: env i reset with seeds[i], its
  // first observation into row i of `observations` (size() rows of
  // spec().observation.flat_size() floats).
  virtual void reset(const std::uint64_t* seeds, float* observations) = 0;
  // Starts a new episode in env i alone (an episode cut short by its caller).
  virtual void reset_one(int i, std::uint64_t seed, float* observation) = 0;

  // Steps env i with row i of `actions` (spec().action.flat_size() floats
  // each; a discrete action is its index) and writes its outcome into
  // results[i] and its next observation into row i of `observations`. Where
  // env i's episode ended, row i of `final_observations` receives the
  // observation that ended it, and, when `reset_seeds` is given, env i is
  // reset with reset_seeds[i] and row i of `observations` is the new
  // episode's first observation. Throws when an environment fails.
  virtual void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                    step_result* results, float* final_observations) = 0;

  // With spec().has_action_mask: each environment's legal actions in its
  // current state (after any reset within the last step), size() rows of
  // spec().action.choice_count() bytes (algo/action_mask.hpp's rows). Not called otherwise.
  virtual void action_masks(std::uint8_t* masks) const {}

  // Whether render() can draw these environments.
  virtual bool can_render() const { return false; }
  // Draws env i as it is now into `frame`; false when it cannot draw itself.
  virtual bool render(int i, rgb_frame& frame) { return false; }
  // renderable::action_at of environment i's picture.
  virtual int action_at(int i, double u, double v) const { return -1; }
  // Env i is one seat of a two-player game: the other seat, into `view`.
  // False for anything else.
  virtual bool other_seat(int i, other_seat_view& view) const { return false; }
};

// `count` environments stepped on the calling thread, one object each.
class native_env_vector final : public env_vector {
 public:
  explicit native_env_vector(std::vector<std::unique_ptr<env>> envs);

  const env_spec& spec() const override { return envs_.front()->spec(); }
  int size() const override { return static_cast<int>(envs_.size()); }
  void reset(const std::uint64_t* seeds, float* observations) override;
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  void action_masks(std::uint8_t* masks) const override;
  bool can_render() const override;
  bool render(int i, rgb_frame& frame) override;
  bool other_seat(int i, other_seat_view& view) const override { return envs_[size_t(i)]->other_seat(view); }

 private:
  std::vector<std::unique_ptr<env>> envs_;
  int obs_size_ = 0;
  int action_size_ = 0;
};

// One environment of a vector of one, seen through the single-environment
// interface (no automatic reset), so that every tool that takes an env —
// rollouts, step benchmarks, the viewer — works with any vector too.
class vector_as_env final : public env, public renderable {
 public:
  explicit vector_as_env(std::unique_ptr<env_vector> vector);
  const env_spec& spec() const override { return vector_->spec(); }
  void reset(std::uint64_t seed, float* observation) override;
  step_result step(const float* action, float* observation) override;
  void action_mask(std::uint8_t* legal) const override { vector_->action_masks(legal); }
  void render(rgb_frame& frame) const override;
  bool can_render() const override { return vector_->can_render(); }
  int action_at(double u, double v) const override { return vector_->action_at(0, u, v); }
  bool other_seat(other_seat_view& view) const override { return vector_->other_seat(0, view); }
  env_vector& vector() { return *vector_; }

 private:
  std::unique_ptr<env_vector> vector_;
  std::vector<float> final_observation_;
};

// What can draw `e`, or null: its own renderable side, when it can render.
const renderable* drawable(const env& e);

}  // namespace troupe::envs
