#pragma once
// A rollout for the tests of the learners' steps by hand: n steps of k
// environments of the model's observation size, random and away from 0,
// acted by the model's policy (a Gaussian's sampled; a categorical's drawn
// among legal actions of random masks, action 0 always legal), with
// behaviour log-probabilities off the policy's by `behaviour_noise` (a
// categorical's), episodes ending at every 7th sample, and with
// `truncate_every` > 0 episodes cut short at every such sample (their last
// states in truncation_observations).
#include <cmath>
#include <cstdint>
#include <random>

#include "algo/rollout.hpp"
#include "algo/sampling.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::tests {

inline algo::rollout policy_rollout(model::shared_model& m, int n, int k, std::uint64_t sequence, std::uint64_t seed,
                                    float behaviour_noise, int truncate_every = 0) {
  const model::net_spec& spec = m.spec;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  algo::rollout r;
  r.sequence = sequence;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = spec.obs_size;
  r.action_size = spec.continuous ? spec.action_size : 1;
  r.mask_size = spec.continuous ? 0 : spec.action_size;
  for (int i = 0; i < (n + 1) * k * spec.obs_size; ++i) r.observations.push_back(2 * normal(rng) + 1);
  model::prediction out;
  model::predict(m, r.observations.data(), nullptr, n * k, out);
  for (int i = 0; i < n * k; ++i) {
    const float* row = &out.policy[size_t(i) * size_t(spec.action_size)];
    if (spec.continuous) {
      double logp = 0;
      for (int d = 0; d < spec.action_size; ++d) {
        const double sd = std::exp(out.log_std[size_t(d)]);
        const double a = row[d] + sd * normal(rng);
        r.actions.push_back(float(a));
        const double z = (a - row[d]) / sd;
        logp += -0.5 * z * z - out.log_std[size_t(d)] - 0.5 * std::log(2 * M_PI);
      }
      r.behaviour_logp.push_back(float(logp));
    } else {
      std::vector<std::uint8_t> mask(size_t(spec.action_size));
      for (int j = 0; j < spec.action_size; ++j) mask[size_t(j)] = j == 0 || rng() % 3 != 0;
      int action = 0;
      do action = int(rng() % spec.action_size);
      while (!mask[size_t(action)]);
      r.actions.push_back(float(action));
      r.action_masks.insert(r.action_masks.end(), mask.begin(), mask.end());
      r.behaviour_logp.push_back(algo::categorical_logp(row, spec.action_size, action) + behaviour_noise * normal(rng));
    }
    r.rewards.push_back(normal(rng));
    const bool truncated = truncate_every > 0 && i % truncate_every == 5;
    r.terminated.push_back(!truncated && i % 7 == 3);
    r.truncated.push_back(truncated);
    if (truncated)
      for (int j = 0; j < spec.obs_size; ++j) r.truncation_observations.push_back(normal(rng));
    r.behaviour_version.push_back(out.version);
  }
  return r;
}

}  // namespace troupe::tests
