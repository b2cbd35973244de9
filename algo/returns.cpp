#include "algo/returns.hpp"

#include <stdexcept>

namespace troupe::algo {

std::vector<float> nstep_returns(const std::vector<float>& rewards,
                                 const std::vector<std::uint8_t>& terminated,
                                 const std::vector<std::uint8_t>& truncated,
                                 const std::vector<float>& next_values, int n_steps,
                                 int n_envs, double gamma) {
  const size_t count = static_cast<size_t>(n_steps) * n_envs;
  if (rewards.size() != count || terminated.size() != count ||
      truncated.size() != count || next_values.size() != count)
    throw std::invalid_argument("nstep_returns: arrays must hold n_steps * n_envs values");
  std::vector<float> returns(count);
  for (int e = 0; e < n_envs; ++e) {
    double next_return = 0.0;  // return of the following step in this env
    for (int t = n_steps - 1; t >= 0; --t) {
      const size_t i = static_cast<size_t>(t) * n_envs + e;
      double continuation;
      if (terminated[i])
        continuation = 0.0;
      else if (truncated[i] || t == n_steps - 1)
        continuation = next_values[i];
      else
        continuation = next_return;
      next_return = rewards[i] + gamma * continuation;
      returns[i] = static_cast<float>(next_return);
    }
  }
  return returns;
}

std::vector<float> gae_advantages(const std::vector<float>& rewards,
                                  const std::vector<std::uint8_t>& terminated,
                                  const std::vector<std::uint8_t>& truncated,
                                  const std::vector<float>& values,
                                  const std::vector<float>& next_values, int n_steps,
                                  int n_envs, double gamma, double lambda) {
  const size_t count = static_cast<size_t>(n_steps) * n_envs;
  if (rewards.size() != count || terminated.size() != count || truncated.size() != count ||
      values.size() != count || next_values.size() != count)
    throw std::invalid_argument("gae_advantages: arrays must hold n_steps * n_envs values");
  std::vector<float> out(count);
  for (int e = 0; e < n_envs; ++e) {
    double next_advantage = 0.0;
    for (int t = n_steps - 1; t >= 0; --t) {
      const size_t i = static_cast<size_t>(t) * n_envs + e;
      const double bootstrap = terminated[i] ? 0.0 : gamma * next_values[i];
      const double delta = rewards[i] + bootstrap - values[i];
      const bool cut = terminated[i] || truncated[i] || t == n_steps - 1;
      next_advantage = delta + (cut ? 0.0 : gamma * lambda * next_advantage);
      out[i] = static_cast<float>(next_advantage);
    }
  }
  return out;
}

std::vector<float> advantages(const std::vector<float>& returns,
                              const std::vector<float>& values) {
  if (returns.size() != values.size())
    throw std::invalid_argument("advantages: returns and values differ in size");
  std::vector<float> out(returns.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = returns[i] - values[i];
  return out;
}

}  // namespace troupe::algo
