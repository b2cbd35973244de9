#pragma once
// A rollout for learner tests: n steps of k environments with 4 random
// observations and 2 actions, acted by a model's current policy.
#include <cstdint>
#include <random>

#include "algo/act_from_policy.hpp"
#include "algo/rollout.hpp"
#include "algo/sampling.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::tests {

// n steps of k environments with 4 random observations and 2 actions, as
// `m`'s current policy acted them: each behaviour log-probability is the
// policy's own, so a learner at m's version sees a probability ratio of 1.
inline algo::rollout acted_rollout(model::shared_model& m, int n, int k, std::uint32_t agent,
                                   std::uint64_t sequence, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  algo::rollout r;
  r.agent_id = agent;
  r.sequence = sequence;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = 4;
  r.state_size = m.spec.state_size();
  r.initial_states.assign(size_t(k) * r.state_size, 0.f);
  for (int i = 0; i < (n + 1) * k * 4; ++i) r.observations.push_back(normal(rng));
  model::prediction out;
  model::predict(m, r.observations.data(), nullptr, n * k, out);
  for (int i = 0; i < n * k; ++i) {
    const int action = int(rng() % 2);
    r.actions.push_back(float(action));
    r.rewards.push_back(normal(rng));
    r.terminated.push_back(i == k);  // env 0 ends an episode at step 1
    r.truncated.push_back(0);
    r.behaviour_logp.push_back(algo::categorical_logp(&out.policy[size_t(i) * 2], 2, action));
    r.behaviour_version.push_back(out.version);
  }
  return r;
}

}  // namespace troupe::tests
