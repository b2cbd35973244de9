#include "agents/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "algo/sampling.hpp"
#include "envs/registry.hpp"

namespace troupe::agents {

// Episode i's randomness (its reset and its sampled actions) comes from
// (seed, i) alone, so results do not depend on how many episodes run at once.
std::mt19937_64 episode_rng(std::uint64_t seed, int episode) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(episode)};
  return std::mt19937_64(seq);
}

void choose_action(const model::net_spec& net, const envs::space& action_space,
                   const float* policy, const float* log_std, bool greedy, std::mt19937_64& rng,
                   float* action) {
  if (!net.continuous) {
    action[0] = static_cast<float>(greedy ? algo::greedy_action(policy, net.action_size).action
                                          : algo::sample_categorical(policy, net.action_size, rng).action);
    return;
  }
  if (greedy)
    std::copy(policy, policy + net.action_size, action);
  else
    algo::sample_gaussian(policy, log_std, net.action_size, rng, action);
  if (action_space.type == envs::space::kind::box)
    for (size_t j = 0; j < size_t(net.action_size); ++j)
      action[j] = static_cast<float>(
          std::clamp<double>(action[j], action_space.low[j], action_space.high[j]));
}

namespace {

// One environment slot playing one episode at a time.
struct slot {
  std::unique_ptr<envs::env> env;
  std::mt19937_64 rng;
  int episode = -1;  // < 0: idle
  double total = 0;
  std::int64_t length = 0;
};

}  // namespace

evaluation evaluate(model::shared_model& model, const envs::env_config& config, int episodes,
                    bool greedy, std::uint64_t seed, std::int64_t max_steps_per_episode,
                    int parallel) {
  evaluation result;
  if (episodes <= 0) return result;
  const model::net_spec& net = model::spec_of(model);
  const int slots_n = std::max(1, std::min(parallel, episodes));
  std::vector<slot> slots(slots_n);
  for (auto& s : slots) s.env = envs::make_env(config);
  const envs::env_spec& spec = slots[0].env->spec();
  const size_t obs_size = spec.observation.flat_size();
  const size_t action_size = spec.action.flat_size();
  std::vector<float> obs(obs_size * slots_n), action(action_size);
  result.returns.assign(episodes, 0.0);
  result.lengths.assign(episodes, 0);

  int next_episode = 0;
  auto start_next = [&](int i) {
    slot& s = slots[i];
    s.episode = next_episode < episodes ? next_episode++ : -1;
    if (s.episode < 0) return;
    s.rng = episode_rng(seed, s.episode);
    s.total = 0;
    s.length = 0;
    s.env->reset(s.rng(), &obs[i * obs_size]);
  };
  for (int i = 0; i < slots_n; ++i) start_next(i);

  model::prediction out;
  for (int running = slots_n; running > 0;) {
    // Idle slots keep their last observation; their rows are computed and ignored.
    model::predict(model, obs.data(), slots_n, out);
    running = 0;
    for (int i = 0; i < slots_n; ++i) {
      slot& s = slots[i];
      if (s.episode < 0) continue;
      choose_action(net, spec.action, &out.policy[size_t(i) * net.action_size],
                    out.log_std.data(), greedy, s.rng, action.data());
      const envs::step_result step = s.env->step(action.data(), &obs[i * obs_size]);
      s.total += step.reward;
      ++s.length;
      if (step.terminated || step.truncated || s.length >= max_steps_per_episode) {
        result.returns[s.episode] = s.total;
        result.lengths[s.episode] = s.length;
        start_next(i);
      }
      if (s.episode >= 0) ++running;
    }
  }
  const double n = episodes;
  for (int i = 0; i < episodes; ++i) {
    result.return_mean += result.returns[i] / n;
    result.length_mean += result.lengths[i] / n;
  }
  for (double r : result.returns)
    result.return_std += (r - result.return_mean) * (r - result.return_mean) / n;
  result.return_std = std::sqrt(result.return_std);
  return result;
}

}  // namespace troupe::agents
