#include "algo/targets.hpp"

#include "algo/returns.hpp"
#include "algo/vtrace.hpp"

namespace troupe::algo {

learning_targets compute_targets(const algo_config& c, const rollout& r,
                                 const std::vector<float>& values,
                                 const std::vector<float>& next_values,
                                 const std::vector<float>& target_logp) {
  const int n = r.n_steps, k = r.n_envs;
  std::vector<float> rewards = r.rewards;
  if (c.reward_scale != 1.0)
    for (float& x : rewards) x = static_cast<float>(x * c.reward_scale);
  learning_targets t;
  switch (c.correction) {
    case correction_kind::vtrace: {
      vtrace_targets vt = vtrace(r.behaviour_logp, target_logp, rewards, r.terminated, r.truncated,
                                 values, next_values, n, k,
                                 {c.gamma, c.vtrace_rho_bar, c.vtrace_c_bar});
      t.returns = std::move(vt.vs);
      t.advantages = std::move(vt.pg_advantages);
      return t;
    }
    case correction_kind::none:
      break;
  }
  if (c.gae_lambda < 1.0) {
    t.advantages = gae_advantages(rewards, r.terminated, r.truncated, values, next_values, n, k,
                                  c.gamma, c.gae_lambda);
    t.returns.resize(t.advantages.size());
    for (size_t i = 0; i < t.advantages.size(); ++i) t.returns[i] = t.advantages[i] + values[i];
  } else {
    t.returns = nstep_returns(rewards, r.terminated, r.truncated, next_values, n, k, c.gamma);
    t.advantages = advantages(t.returns, values);
  }
  return t;
}

}  // namespace troupe::algo
