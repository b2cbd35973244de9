#pragma once
// n-step returns and advantages: plain functions, time-major arrays.
#include <cstdint>
#include <vector>

namespace troupe::algo {

// Bootstrapped n-step returns for n_steps x n_envs samples.
//
// next_values[i] is V of the state that followed sample i before any reset. It
// is read only where the return needs a bootstrap: at the rollout's last step
// and where the time limit truncated the episode. A terminated episode
// bootstraps from nothing; a truncated one from the value of its last state.
std::vector<float> nstep_returns(const std::vector<float>& rewards,
                                 const std::vector<std::uint8_t>& terminated,
                                 const std::vector<std::uint8_t>& truncated,
                                 const std::vector<float>& next_values, int n_steps,
                                 int n_envs, double gamma);

// Generalised advantage estimates (Schulman et al., 2016): the lambda-weighted
// sum of TD errors r + gamma V(next) - V, cut at episode ends and at the
// rollout's end, with `next_values` read as in nstep_returns. lambda = 1
// gives nstep_returns - values; lambda = 0 the one-step TD error.
std::vector<float> gae_advantages(const std::vector<float>& rewards,
                                  const std::vector<std::uint8_t>& terminated,
                                  const std::vector<std::uint8_t>& truncated,
                                  const std::vector<float>& values,
                                  const std::vector<float>& next_values, int n_steps,
                                  int n_envs, double gamma, double lambda);

// returns - values, element-wise.
std::vector<float> advantages(const std::vector<float>& returns,
                              const std::vector<float>& values);

}  // namespace troupe::algo
