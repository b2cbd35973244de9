#pragma once
// PPO's loss on tensors (Schulman et al., 2017): the clipped surrogate of
// the probability ratio between the policy being trained and the one that
// acted, an optionally clipped value regression and an entropy bonus.
#include <torch/torch.h>

#include "algo/ppo_loss_settings.hpp"

namespace troupe::algo {

struct ppo_loss_terms {
  torch::Tensor total;
  torch::Tensor policy;         // -mean(min(r A, clip(r, 1 - c, 1 + c) A))
  torch::Tensor value;          // mean(0.5 (return - V)^2), or its clipped form's max
  torch::Tensor entropy;        // mean policy entropy
  double approx_kl = 0;         // mean((r - 1) - log r)
  double clip_fraction = 0;     // share of samples with |r - 1| > clip
};

// `action_logp`, `entropy`, `values`: the trained policy's, per sample, with
// gradients. `behaviour_logp`: the log-probability the action was taken
// with; `old_values`: V when the batch's targets were computed; `advantages`
// and `returns`: the targets. None of these four carries a gradient.
ppo_loss_terms ppo_loss(const torch::Tensor& action_logp, const torch::Tensor& entropy,
                        const torch::Tensor& values, const torch::Tensor& behaviour_logp,
                        const torch::Tensor& old_values, const torch::Tensor& advantages,
                        const torch::Tensor& returns, const ppo_loss_settings& settings);

}  // namespace troupe::algo
