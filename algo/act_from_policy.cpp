#include "algo/act_from_policy.hpp"

#include <algorithm>

#include "algo/sampling.hpp"

namespace troupe::algo {

namespace {

// `d` values drawn from the Gaussian of `mean` and `log_std` (its mean when
// `greedy`) into `action`; returns their log-density.
float gaussian_action(const float* mean, const float* log_std, int d, bool greedy, std::mt19937_64& rng,
                      float* action) {
  if (!greedy) return sample_gaussian(mean, log_std, d, rng, action);
  std::copy(mean, mean + d, action);
  return gaussian_logp(mean, log_std, d, action);
}

}  // namespace

float act_from_policy(const model::net_spec& net, const float* policy, const float* log_std,
                      bool greedy, std::mt19937_64& rng, float* action,
                      const std::uint8_t* legal) {
  const int n = net.action_size;
  if (!net.continuous && net.action_heads.empty()) {
    const sampled_action a =
        greedy ? greedy_action(policy, n, legal) : sample_categorical(policy, n, rng, legal);
    action[0] = static_cast<float>(a.action);
    return a.logp;
  }
  if (!net.continuous) {
    float logp = 0.0f;
    int offset = 0, j = 0;
    for (const int choices : net.action_heads) {
      const std::uint8_t* head_legal = legal ? legal + offset : nullptr;
      const sampled_action a = greedy ? greedy_action(policy + offset, choices, head_legal)
                                      : sample_categorical(policy + offset, choices, rng, head_legal);
      action[j++] = static_cast<float>(a.action);
      logp += a.logp;
      offset += choices;
    }
    if (!net.hybrid()) return logp;
    return logp + gaussian_action(policy + offset, log_std, net.gaussian_size, greedy, rng, action + j);
  }
  return gaussian_action(policy, log_std, n, greedy, rng, action);
}

}  // namespace troupe::algo
