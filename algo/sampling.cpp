#include "algo/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace troupe::algo {

namespace {
bool is_legal(const std::uint8_t* legal, int i) { return !legal || legal[i]; }

// log(sum(exp(logits))) over the legal actions, without overflow.
double log_sum_exp(const float* logits, int n, const std::uint8_t* legal) {
  float top = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i)
    if (is_legal(legal, i)) top = std::max(top, logits[i]);
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    if (is_legal(legal, i)) sum += std::exp(double(logits[i]) - top);
  return top + std::log(sum);
}
}  // namespace

float categorical_logp(const float* logits, int n, int action, const std::uint8_t* legal) {
  if (!is_legal(legal, action)) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(logits[action] - log_sum_exp(logits, n, legal));
}

void categorical_probabilities(const float* logits, int n, float* probabilities,
                               const std::uint8_t* legal) {
  const double lse = log_sum_exp(logits, n, legal);
  for (int i = 0; i < n; ++i)
    probabilities[i] = is_legal(legal, i) ? static_cast<float>(std::exp(logits[i] - lse)) : 0.f;
}

sampled_action sample_categorical(const float* logits, int n, std::mt19937_64& rng,
                                  const std::uint8_t* legal) {
  const double lse = log_sum_exp(logits, n, legal);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  double cumulative = 0.0;
  int chosen = -1;
  for (int i = 0; i < n; ++i) {
    if (!is_legal(legal, i)) continue;
    chosen = i;  // rounding can leave the sum a hair below u: the last legal one
    cumulative += std::exp(logits[i] - lse);
    if (u < cumulative) break;
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

sampled_action greedy_action(const float* logits, int n, const std::uint8_t* legal) {
  int best = -1;
  for (int i = 0; i < n; ++i)
    if (is_legal(legal, i) && (best < 0 || logits[i] > logits[best])) best = i;
  return {best, categorical_logp(logits, n, best, legal)};
}

}  // namespace troupe::algo
