#include "algo/vtrace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace troupe::algo {

vtrace_targets vtrace(const std::vector<float>& behaviour_logp,
                      const std::vector<float>& target_logp, const std::vector<float>& rewards,
                      const std::vector<std::uint8_t>& terminated,
                      const std::vector<std::uint8_t>& truncated,
                      const std::vector<float>& values, const std::vector<float>& next_values,
                      int n_steps, int n_envs, const vtrace_settings& s) {
  const size_t count = static_cast<size_t>(n_steps) * n_envs;
  for (const auto* v : {&behaviour_logp, &target_logp, &rewards, &values, &next_values})
    if (v->size() != count) throw std::invalid_argument("vtrace: arrays must hold n_steps * n_envs values");
  if (terminated.size() != count || truncated.size() != count)
    throw std::invalid_argument("vtrace: flags must hold n_steps * n_envs values");

  vtrace_targets out{std::vector<float>(count), std::vector<float>(count)};
  for (int e = 0; e < n_envs; ++e) {
    double correction = 0.0;  // v_{s+1} - V(x_{s+1}) of the following step
    for (int t = n_steps - 1; t >= 0; --t) {
      const size_t i = static_cast<size_t>(t) * n_envs + e;
      const double ratio = std::exp(double(target_logp[i]) - behaviour_logp[i]);
      const double rho = std::min(s.rho_bar, ratio);
      const double c = std::min(s.c_bar, ratio);
      const double discount = terminated[i] ? 0.0 : s.gamma;
      const bool boundary = terminated[i] || truncated[i] || t == n_steps - 1;
      const double next_correction = boundary ? 0.0 : correction;
      const double delta = rho * (rewards[i] + discount * next_values[i] - values[i]);
      correction = delta + discount * c * next_correction;
      out.vs[i] = static_cast<float>(values[i] + correction);
      const double next_target = next_values[i] + next_correction;
      out.pg_advantages[i] =
          static_cast<float>(rho * (rewards[i] + discount * next_target - values[i]));
    }
  }
  return out;
}

}  // namespace troupe::algo
