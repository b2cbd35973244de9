#pragma once
// The A3C loss on tensors: advantage policy gradient, value regression and an
// entropy bonus. Works for any policy distribution (see policy_distribution.hpp).
#include <torch/torch.h>

namespace troupe::algo {

struct a3c_loss_terms {
  torch::Tensor total;
  torch::Tensor policy;   // -mean(logp(a) * advantage)
  torch::Tensor value;    // mean(0.5 * (return - V)^2)
  torch::Tensor entropy;  // mean policy entropy
};

// `advantages` and `returns` carry no gradient.
a3c_loss_terms a3c_loss(const torch::Tensor& action_logp, const torch::Tensor& entropy,
                        const torch::Tensor& values, const torch::Tensor& advantages,
                        const torch::Tensor& returns, double value_coef, double entropy_coef);

}  // namespace troupe::algo
