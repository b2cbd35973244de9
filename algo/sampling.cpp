#include "algo/sampling.hpp"

#include <algorithm>
#include <cmath>

namespace troupe::algo {

namespace {
// log(sum(exp(logits))) without overflow.
double log_sum_exp(const float* logits, int n) {
  const float top = *std::max_element(logits, logits + n);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::exp(double(logits[i]) - top);
  return top + std::log(sum);
}
}  // namespace

float categorical_logp(const float* logits, int n, int action) {
  return static_cast<float>(logits[action] - log_sum_exp(logits, n));
}

void categorical_probabilities(const float* logits, int n, float* probabilities) {
  const double lse = log_sum_exp(logits, n);
  for (int i = 0; i < n; ++i) probabilities[i] = static_cast<float>(std::exp(logits[i] - lse));
}

sampled_action sample_categorical(const float* logits, int n, std::mt19937_64& rng) {
  const double lse = log_sum_exp(logits, n);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  double cumulative = 0.0;
  int chosen = n - 1;  // rounding can leave the sum a hair below u
  for (int i = 0; i < n; ++i) {
    cumulative += std::exp(logits[i] - lse);
    if (u < cumulative) {
      chosen = i;
      break;
    }
  }
  return {chosen, static_cast<float>(logits[chosen] - lse)};
}

float gaussian_logp(const float* mean, const float* log_std, int d, const float* action) {
  const double log_sqrt_2pi = 0.5 * std::log(2.0 * M_PI);
  double logp = 0.0;
  for (int j = 0; j < d; ++j) {
    const double z = (double(action[j]) - mean[j]) * std::exp(-double(log_std[j]));
    logp += -0.5 * z * z - log_std[j] - log_sqrt_2pi;
  }
  return static_cast<float>(logp);
}

float sample_gaussian(const float* mean, const float* log_std, int d, std::mt19937_64& rng,
                      float* action) {
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int j = 0; j < d; ++j)
    action[j] = static_cast<float>(mean[j] + std::exp(double(log_std[j])) * normal(rng));
  return gaussian_logp(mean, log_std, d, action);
}

sampled_action greedy_action(const float* logits, int n) {
  const int best = static_cast<int>(std::max_element(logits, logits + n) - logits);
  return {best, categorical_logp(logits, n, best)};
}

}  // namespace troupe::algo
