#include "algo/policy_rows_by_hand.hpp"

#include <algorithm>
#include <cmath>

#include "algo/action_mask.hpp"

namespace troupe::algo {

namespace {
const double log_sqrt_2pi = 0.5 * std::log(2.0 * M_PI);
}

row_terms categorical_row(const float* logits, const std::uint8_t* legal, int width, int action,
                          std::vector<double>& log_probs) {
  log_probs.resize(std::size_t(width));
  float top = -INFINITY;
  for (int j = 0; j < width; ++j) {
    const float z = (legal && !legal[j]) ? masked_logit : logits[j];
    log_probs[std::size_t(j)] = z;
    top = std::max(top, z);
  }
  double sum = 0;
  for (int j = 0; j < width; ++j) sum += std::exp(log_probs[std::size_t(j)] - top);
  const double log_sum = top + std::log(sum);
  row_terms t;
  for (int j = 0; j < width; ++j) {
    double& lp = log_probs[std::size_t(j)];
    lp -= log_sum;
    t.entropy -= std::exp(lp) * lp;
  }
  t.logp = log_probs[std::size_t(action)];
  return t;
}

void add_categorical_gradient(const std::vector<double>& log_probs, const row_terms& terms, int action,
                              double d_logp, double d_entropy, float* d_row, int width) {
  for (int j = 0; j < width; ++j) {
    const double lp = log_probs[std::size_t(j)], p = std::exp(lp);
    d_row[j] += float(d_logp * ((j == action ? 1.0 : 0.0) - p) + d_entropy * (-p * (lp + terms.entropy)));
  }
}

row_terms gaussian_row(const float* means, const float* log_std, const float* action, int width) {
  row_terms t;
  for (int d = 0; d < width; ++d) {
    const double z = (double(action[d]) - means[d]) * std::exp(-double(log_std[d]));
    t.logp += -0.5 * z * z - log_std[d] - log_sqrt_2pi;
    t.entropy += log_std[d] + 0.5 + log_sqrt_2pi;
  }
  return t;
}

void add_gaussian_gradient(const float* means, const float* log_std, const float* action, int width,
                           double d_logp, float* d_row, float* d_log_std) {
  for (int d = 0; d < width; ++d) {
    const double inv_var = std::exp(-2.0 * log_std[d]);
    const double diff = double(action[d]) - means[d];
    d_row[d] += float(d_logp * diff * inv_var);
    d_log_std[d] += float(d_logp * (diff * diff * inv_var - 1.0));
  }
}

}  // namespace troupe::algo
