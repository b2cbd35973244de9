#pragma once
// PPO's loss for one minibatch and its gradient with respect to the
// network's outputs, by hand: the arithmetic of algo/ppo_loss.cpp and of
// algo/policy_distribution.cpp's categorical (masks included) and Gaussian
// terms, with the derivatives LibTorch's autograd would take of them (ties
// of min and max split the gradient in halves, as LibTorch's do). For the
// hand-written MLP step (algo/mlp_ppo_step.hpp). Plain C++.
#include <cstdint>
#include <vector>

#include "algo/ppo_loss_settings.hpp"

namespace troupe::algo {

struct ppo_minibatch_view {
  int n = 0;
  bool gaussian = false;  // a diagonal Gaussian; else one categorical
  int width = 0;          // logits, or the Gaussian's means, per row
  const float* policy = nullptr;  // [n][width], the network's
  const float* log_std = nullptr; // [width] (Gaussian)
  const float* values = nullptr;  // [n], the network's
  const float* actions = nullptr; // Gaussian: [n][width]; categorical: [n] indices
  const std::uint8_t* legal = nullptr;  // categorical: [n][width] mask rows, or null
  // Per sample, without gradients: as algo::ppo_loss takes them.
  const float* behaviour_logp = nullptr;
  const float* old_values = nullptr;
  const float* advantages = nullptr;
  const float* returns = nullptr;
};

struct ppo_loss_by_hand {
  double total = 0, policy = 0, value = 0, entropy = 0;  // as algo::ppo_loss_terms's
  double approx_kl = 0, clip_fraction = 0;
  std::vector<float> d_policy;   // [n][width]: d total / d policy
  std::vector<float> d_values;   // [n]
  std::vector<float> d_log_std;  // [width] (Gaussian)
};

// Overwrites `out` (its vectors keep their capacity between minibatches).
void ppo_loss_and_gradient(const ppo_minibatch_view& in, const ppo_loss_settings& settings,
                           ppo_loss_by_hand& out);

}  // namespace troupe::algo
