#pragma once
// V-trace (Espeholt et al., 2018): off-policy value targets and policy-gradient
// advantages with truncated importance weights, for samples acted with an
// older policy (the behaviour) than the one being trained (the target).
#include <cstdint>
#include <vector>

namespace troupe::algo {

struct vtrace_settings {
  double gamma = 0.99;
  double rho_bar = 1.0;  // clips the weight of each TD error
  double c_bar = 1.0;    // clips how far corrections travel back in time
};

struct vtrace_targets {
  std::vector<float> vs;             // value targets
  std::vector<float> pg_advantages;  // rho_s * (r_s + gamma * v_{s+1} - V(x_s))
};

// Time-major arrays of n_steps x n_envs samples. `values` are V(x_s);
// `next_values` are V of each sample's successor before any reset, as in
// nstep_returns. An episode's end (terminated or truncated) and the rollout's
// end stop the recursion: there the successor's target is its plain value
// (zero after termination).
vtrace_targets vtrace(const std::vector<float>& behaviour_logp,
                      const std::vector<float>& target_logp, const std::vector<float>& rewards,
                      const std::vector<std::uint8_t>& terminated,
                      const std::vector<std::uint8_t>& truncated,
                      const std::vector<float>& values, const std::vector<float>& next_values,
                      int n_steps, int n_envs, const vtrace_settings& settings);

}  // namespace troupe::algo
