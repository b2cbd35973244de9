#include "algo/act_from_policy.hpp"

#include <algorithm>

#include "algo/sampling.hpp"

namespace troupe::algo {

float act_from_policy(const model::net_spec& net, const float* policy, const float* log_std,
                      bool greedy, std::mt19937_64& rng, float* action,
                      const std::uint8_t* legal) {
  const int n = net.action_size;
  if (!net.continuous) {
    const sampled_action a =
        greedy ? greedy_action(policy, n, legal) : sample_categorical(policy, n, rng, legal);
    action[0] = static_cast<float>(a.action);
    return a.logp;
  }
  if (!greedy) return sample_gaussian(policy, log_std, n, rng, action);
  std::copy(policy, policy + n, action);
  return gaussian_logp(policy, log_std, n, action);
}

}  // namespace troupe::algo
