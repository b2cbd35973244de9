#pragma once
// PPO's minibatch step for a small feed-forward MLP on the CPU, by hand:
// model/mlp_by_hand.hpp's forward and backward passes around
// algo/ppo_loss_by_hand.hpp's loss, then the learner's one atomic update
// (learner_core::apply). It computes what ppo_update's LibTorch step
// computes (tests/algo/mlp_ppo_step_test.cpp holds the two together) in a
// handful of calls instead of a hundred LibTorch operations.
#include <memory>
#include <vector>

#include "algo/learner_core.hpp"
#include "algo/ppo_loss_by_hand.hpp"
#include "model/mlp_by_hand.hpp"

namespace troupe::algo {

// Per sample of a batch (indexed by sample), what its minibatches train on.
struct ppo_sample_targets {
  const float* behaviour_logp = nullptr;
  const float* old_values = nullptr;
  const float* advantages = nullptr;
  const float* returns = nullptr;
};

class mlp_ppo_step {
 public:
  // Null when the step by hand does not compute `model`'s network and
  // policy (a cnn, images, a recurrent core, parameters off the CPU, or a
  // policy other than one categorical or a Gaussian) or its spec says
  // by_hand: false.
  static std::shared_ptr<mlp_ppo_step> for_model(model::shared_model& model);
  explicit mlp_ppo_step(model::mlp_layout layout, bool gaussian);

  // One update from the minibatch of `batch`'s `samples`; returns its
  // loss's terms (valid until the next call) and sets `outcome`.
  const ppo_loss_by_hand& run(learner_core& core, const rollout& batch, const std::vector<std::int64_t>& samples,
                              const ppo_sample_targets& targets, const ppo_loss_settings& settings,
                              step_outcome& outcome);

 private:
  model::mlp_pass pass_;
  bool gaussian_;
  std::vector<float> rows_, actions_, behaviour_logp_, old_values_, advantages_, returns_;
  std::vector<std::uint8_t> legal_;
  torch::Tensor gradient_;  // the flat gradient, reused: the optimiser reads it as the parameters' .grad
  ppo_loss_by_hand loss_;
};

}  // namespace troupe::algo
