#include "algo/act_from_policy.hpp"

#include <algorithm>

#include "algo/sampling.hpp"

namespace troupe::algo {

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
    return logp;
  }
  if (!greedy) return sample_gaussian(policy, log_std, n, rng, action);
  std::copy(policy, policy + n, action);
  return gaussian_logp(policy, log_std, n, action);
}

}  // namespace troupe::algo
