#pragma once
// One row of a policy's outputs, by hand: the log-probability of the action
// it took and the policy's entropy, and their derivatives by the row's
// outputs, as LibTorch's autograd takes them of algo/policy_distribution.cpp's
// categorical (masks included) and diagonal Gaussian terms. What the losses
// by hand (algo/ppo_loss_by_hand.hpp, algo/a3c_loss_by_hand.hpp) share.
// Plain C++.
#include <cstdint>
#include <vector>

namespace troupe::algo {

struct row_terms {
  double logp = 0, entropy = 0;
};

// log_softmax over the legal logits (a masked one is algo::masked_logit:
// probability 0, no gradient); leaves every logit's log-probability in
// `log_probs` for the gradient. `legal` may be null (all legal).
row_terms categorical_row(const float* logits, const std::uint8_t* legal, int width, int action,
                          std::vector<double>& log_probs);
// d_row[j] += d_logp * d logp / d logit_j + d_entropy * d entropy / d logit_j,
// from categorical_row's `log_probs` and terms.
void add_categorical_gradient(const std::vector<double>& log_probs, const row_terms& terms, int action,
                              double d_logp, double d_entropy, float* d_row, int width);

// A diagonal Gaussian's log-density of `action` and its entropy (which
// depends on the log-stds alone).
row_terms gaussian_row(const float* means, const float* log_std, const float* action, int width);
// d_row[d] += d_logp * d logp / d mean_d, d_log_std[d] += d_logp * d logp /
// d log_std_d (the entropy's part, a constant per row, is the caller's).
void add_gaussian_gradient(const float* means, const float* log_std, const float* action, int width,
                           double d_logp, float* d_row, float* d_log_std);

}  // namespace troupe::algo
