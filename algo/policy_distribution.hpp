#pragma once
// Log-probabilities and entropies of the two policy kinds, per sample.
#include <torch/torch.h>

#include <vector>

namespace troupe::algo {

struct policy_terms {
  torch::Tensor logp;     // [batch]: log-probability of the taken action
  torch::Tensor entropy;  // [batch]
};

// `actions`: int64 [batch]; `legal`: bool [batch, actions], each state's
// action mask (algo/action_mask.hpp), or undefined when there is none. A
// masked action's logit becomes algo::masked_logit: its probability is 0, it
// adds nothing to the entropy, and it gets no gradient.
policy_terms categorical_terms(const torch::Tensor& logits, const torch::Tensor& actions,
                               const torch::Tensor& legal = {});
// A categorical of several components: `heads` holds each one's number of
// choices, its logits (and mask entries) in turn along the last dimension;
// `actions`: int64 [batch, heads.size()]. The components are independent
// given the state: the log-probability and the entropy are their sums.
policy_terms multi_categorical_terms(const torch::Tensor& logits, const torch::Tensor& actions,
                                     const std::vector<int>& heads, const torch::Tensor& legal = {});
// `actions`: float [batch, d]; a diagonal Gaussian with state-independent log-std.
policy_terms gaussian_terms(const torch::Tensor& mean, const torch::Tensor& log_std,
                            const torch::Tensor& actions);
// A hybrid action (a Tuple of discrete and Box parts): `policy` holds the
// components' logits (sizes `heads`, masked by `legal`) then the Box part's
// Gaussian means (as many as log_std's entries); `actions`: float [batch,
// heads.size() + d], the indices then the values. The parts are independent
// given the state: log-probability and entropy are the sums of the
// components' and the Gaussian's.
policy_terms hybrid_terms(const torch::Tensor& policy, const torch::Tensor& log_std,
                          const torch::Tensor& actions, const std::vector<int>& heads,
                          const torch::Tensor& legal = {});

}  // namespace troupe::algo
