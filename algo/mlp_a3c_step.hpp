#pragma once
// A3C's update for a small feed-forward MLP on the CPU, by hand:
// model/mlp_by_hand.hpp's forward pass over the rollout's rows (its
// bootstrap rows too), the targets, algo/a3c_loss_by_hand.hpp's loss, the
// backward pass, then the learner's one atomic update (learner_core::apply).
// It computes what a3c_update's LibTorch step computes
// (tests/algo/mlp_a3c_step_test.cpp holds the two together) in a handful of
// calls instead of some fifty LibTorch operations.
#include <memory>
#include <vector>

#include "algo/a3c_loss_by_hand.hpp"
#include "algo/learner_core.hpp"
#include "model/mlp_by_hand.hpp"

namespace troupe::algo {

class mlp_a3c_step {
 public:
  // Null when the passes by hand do not compute `model`'s network and
  // policy (a cnn, images, a recurrent core, parameters off the CPU, or a
  // policy other than one categorical or a Gaussian) or its spec says
  // by_hand: false.
  static std::shared_ptr<mlp_a3c_step> for_model(model::shared_model& model);
  mlp_a3c_step(model::mlp_layout layout, bool gaussian);

  // One A3C update from `r`.
  train_result run(learner_core& core, const rollout& r);

 private:
  model::mlp_pass pass_;
  bool gaussian_;
  std::vector<float> rows_, values_, next_values_, d_policy_, d_values_;
  torch::Tensor gradient_;  // the flat gradient, reused: the optimiser reads it as the parameters' .grad
  a3c_loss_by_hand loss_;
};

}  // namespace troupe::algo
