#pragma once
// A3C's loss for one batch and its gradient with respect to the network's
// outputs, by hand: algo/a3c_loss.cpp's advantage policy gradient, value
// regression and entropy bonus over algo/policy_rows_by_hand.hpp's
// categorical (masks included) or Gaussian terms, with the derivatives
// LibTorch's autograd would take of them. For the hand-written MLP step
// (algo/mlp_a3c_step.hpp). Plain C++.
#include <cstdint>
#include <vector>

namespace troupe::algo {

struct a3c_batch_view {
  int n = 0;
  bool gaussian = false;  // a diagonal Gaussian; else one categorical
  int width = 0;          // logits, or the Gaussian's means, per row
  const float* policy = nullptr;   // [n][width], the network's
  const float* log_std = nullptr;  // [width] (Gaussian)
  const float* values = nullptr;   // [n], the network's
  const float* actions = nullptr;  // Gaussian: [n][width]; categorical: [n] indices
  const std::uint8_t* legal = nullptr;  // categorical: [n][width] mask rows, or null
  // Per sample, without gradients.
  const float* advantages = nullptr;
  const float* returns = nullptr;
};

struct a3c_loss_by_hand {
  double total = 0, policy = 0, value = 0, entropy = 0;  // as algo::a3c_loss_terms's
  std::vector<float> logp;       // [n]: each action's log-probability (V-trace's target policy)
  std::vector<float> d_policy;   // [n][width]: d total / d policy
  std::vector<float> d_values;   // [n]
  std::vector<float> d_log_std;  // [width] (Gaussian)
};

// The rows' log-probabilities of their actions alone (into out.logp), for
// targets that need them before the loss (V-trace).
void a3c_action_logp(const a3c_batch_view& in, a3c_loss_by_hand& out);
// Overwrites `out` (its vectors keep their capacity between batches).
void a3c_loss_and_gradient(const a3c_batch_view& in, double value_coef, double entropy_coef,
                           a3c_loss_by_hand& out);

}  // namespace troupe::algo
