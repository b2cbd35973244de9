#pragma once
// What one update trains toward: per sample, the value target and the
// policy-gradient advantage, from a rollout's rewards and episode ends and
// what the current network says of its states. Plain C++: the learner
// computes the network's side, this decides the targets.
#include <vector>

#include "algo/algo_config.hpp"
#include "algo/rollout.hpp"

namespace troupe::algo {

struct learning_targets {
  std::vector<float> returns;     // value targets
  std::vector<float> advantages;  // weights of the policy gradient
};

// `values`: V of each sample's state; `next_values`: V of the state that
// followed it before any reset (see nstep_returns); `target_logp`: the current
// policy's log-probability of each taken action, read only for V-trace.
// Rewards are scaled by config.reward_scale. The rule:
//   correction vtrace            V-trace targets and advantages
//   gae_lambda < 1               GAE advantages; returns = advantages + values
//   otherwise                    n-step returns; advantages = returns - values
learning_targets compute_targets(const algo_config& config, const rollout& r,
                                 const std::vector<float>& values,
                                 const std::vector<float>& next_values,
                                 const std::vector<float>& target_logp);

}  // namespace troupe::algo
