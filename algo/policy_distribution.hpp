#pragma once
// Log-probabilities and entropies of the two policy kinds, per sample.
#include <torch/torch.h>

namespace troupe::algo {

struct policy_terms {
  torch::Tensor logp;     // [batch]: log-probability of the taken action
  torch::Tensor entropy;  // [batch]
};

// `actions`: int64 [batch].
policy_terms categorical_terms(const torch::Tensor& logits, const torch::Tensor& actions);
// `actions`: float [batch, d]; a diagonal Gaussian with state-independent log-std.
policy_terms gaussian_terms(const torch::Tensor& mean, const torch::Tensor& log_std,
                            const torch::Tensor& actions);

}  // namespace troupe::algo
