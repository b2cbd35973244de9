#include "bench/env_bench.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>

#include "envs/policy_rollout.hpp"

namespace troupe::bench {

double time_env_steps(envs::env& environment, long steps, std::uint64_t seed) {
  if (steps < 1) throw std::invalid_argument("steps must be at least 1");
  const envs::env_spec& spec = environment.spec();
  const size_t action_size = spec.action.flat_size();
  constexpr size_t action_cycle = 4096;
  envs::fixed_policy_actions policy(envs::fixed_policy::random, spec.action, seed + 1);
  std::vector<float> actions(action_cycle * action_size);
  for (size_t i = 0; i < action_cycle; ++i)
    std::copy_n(policy.next(), action_size, actions.begin() + i * action_size);

  std::vector<float> observation(spec.observation.flat_size());
  std::mt19937_64 reset_seeds(seed);
  environment.reset(reset_seeds(), observation.data());
  double reward_sum = 0.0;  // used below, so the steps cannot be optimised away
  const auto start = std::chrono::steady_clock::now();
  for (long t = 0; t < steps; ++t) {
    const float* action = actions.data() + (size_t(t) % action_cycle) * action_size;
    const envs::step_result r = environment.step(action, observation.data());
    reward_sum += r.reward;
    if (r.terminated || r.truncated) environment.reset(reset_seeds(), observation.data());
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  volatile double sink = reward_sum;
  (void)sink;
  return std::chrono::duration<double, std::nano>(elapsed).count() / double(steps);
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

env_bench_result bench_env(const envs::env_config& config, long steps, int repeats,
                           std::uint64_t seed) {
  if (repeats < 1) throw std::invalid_argument("repeats must be at least 1");
  const auto environment = envs::make_env(config);
  env_bench_result result;
  result.id = config.id;
  result.steps = steps;
  time_env_steps(*environment, std::max(1L, steps / 10), seed);
  for (int i = 0; i < repeats; ++i)
    result.repeat_ns.push_back(time_env_steps(*environment, steps, seed + 2 * (i + 1)));
  result.ns_per_step = median(result.repeat_ns);
  return result;
}

}  // namespace troupe::bench
