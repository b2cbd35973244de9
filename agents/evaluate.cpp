#include "agents/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "agents/sampling.hpp"
#include "envs/registry.hpp"

namespace troupe::agents {

evaluation evaluate(model::shared_model& model, const envs::env_config& config, int episodes,
                    bool greedy, std::uint64_t seed, std::int64_t max_steps_per_episode) {
  const auto env = envs::make_env(config);
  const envs::env_spec& spec = env->spec();
  const model::net_spec& net = model::spec_of(model);
  const bool box = spec.action.type == envs::space::kind::box;
  std::vector<float> obs(spec.observation.flat_size()), action(spec.action.flat_size());
  std::mt19937_64 rng(seed);
  model::prediction out;
  evaluation result;
  for (int episode = 0; episode < episodes; ++episode) {
    env->reset(rng(), obs.data());
    double total = 0;
    std::int64_t length = 0;
    for (bool done = false; !done && length < max_steps_per_episode; ++length) {
      model::predict(model, obs.data(), 1, out);
      if (net.continuous) {
        if (greedy)
          std::copy(out.policy.begin(), out.policy.end(), action.begin());
        else
          sample_gaussian(out.policy.data(), out.log_std.data(), net.action_size, rng,
                          action.data());
        if (box)
          for (size_t j = 0; j < action.size(); ++j)
            action[j] = static_cast<float>(
                std::clamp<double>(action[j], spec.action.low[j], spec.action.high[j]));
      } else {
        action[0] = static_cast<float>(
            greedy ? greedy_action(out.policy.data(), net.action_size).action
                   : sample_categorical(out.policy.data(), net.action_size, rng).action);
      }
      const envs::step_result step = env->step(action.data(), obs.data());
      total += step.reward;
      done = step.terminated || step.truncated;
    }
    result.returns.push_back(total);
    result.lengths.push_back(length);
  }
  const double n = std::max(1, episodes);
  for (size_t i = 0; i < result.returns.size(); ++i) {
    result.return_mean += result.returns[i] / n;
    result.length_mean += result.lengths[i] / n;
  }
  for (double r : result.returns) result.return_std += (r - result.return_mean) * (r - result.return_mean) / n;
  result.return_std = std::sqrt(result.return_std);
  return result;
}

}  // namespace troupe::agents
