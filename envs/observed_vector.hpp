#pragma once
// Partial observability without a new environment: `env.observe: [i, j, ...]`
// keeps only those elements of a Box observation (flat indices), in that
// order; CartPole with [0, 2] sees the cart's position and the pole's angle,
// not their velocities. A wrapper over any environment vector.
#include <memory>
#include <vector>

#include "envs/env_vector.hpp"

namespace troupe::envs {

class observed_vector final : public env_vector {
 public:
  // Throws env_key_error (key env.observe) for an empty list, an index out
  // of range, or a space that is not a Box.
  observed_vector(std::unique_ptr<env_vector> inner, std::vector<int> indices);

  const env_spec& spec() const override { return spec_; }
  int size() const override { return inner_->size(); }
  void reset(const std::uint64_t* seeds, float* observations) override;
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  void action_masks(std::uint8_t* masks) const override { inner_->action_masks(masks); }
  bool can_render() const override { return inner_->can_render(); }
  bool render(int i, rgb_frame& frame) override { return inner_->render(i, frame); }
  bool other_seat(int i, other_seat_view& view) const override { return inner_->other_seat(i, view); }

 private:
  // Keeps the chosen elements of `rows` full observations.
  void select(const std::vector<float>& full, float* out, int rows) const;

  std::unique_ptr<env_vector> inner_;
  std::vector<int> indices_;
  env_spec spec_;
  int full_size_ = 0;
  std::vector<float> full_, full_final_;
};

}  // namespace troupe::envs
