#include "algo/reward_normalizer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace troupe::algo {

void reward_normalizer::scale(rollout& r, model::running_moments& moments) {
  const int k = r.n_envs;
  std::vector<double*> g(static_cast<size_t>(k));
  for (int e = 0; e < k; ++e) g[size_t(e)] = &returns_[{r.agent_id, e}];
  std::vector<float> step_returns(static_cast<size_t>(k));
  for (int t = 0; t < r.n_steps; ++t) {
    const size_t row = size_t(t) * k;
    for (int e = 0; e < k; ++e) {
      *g[size_t(e)] = gamma_ * *g[size_t(e)] + r.rewards[row + e];
      step_returns[size_t(e)] = static_cast<float>(*g[size_t(e)]);
    }
    moments.update(step_returns.data(), k);
    const double scale = 1.0 / std::sqrt(moments.var[0] + epsilon_);
    for (int e = 0; e < k; ++e) {
      float& reward = r.rewards[row + e];
      reward = static_cast<float>(std::clamp(reward * scale, -clip_, clip_));
      if (r.terminated[row + e] || r.truncated[row + e]) *g[size_t(e)] = 0.0;
    }
  }
}

}  // namespace troupe::algo
