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

// Slot i of the vector plays episodes i, i + slots, i + 2 slots, ...; so the
// seed of each slot's next episode is known before its current one ends, and
// a vector that resets ended episodes itself can be given it in advance.
struct slot {
  int episode = -1;     // < 0: idle, no episode left for it
  std::mt19937_64 rng;  // this episode's: its reset seed was the first draw
  double total = 0;
  std::int64_t length = 0;
  int upcoming = -1;              // its next episode, or -1
  std::mt19937_64 upcoming_rng;   // that episode's, its reset seed drawn
  std::uint64_t upcoming_seed = 0;
};

void plan_next(slot& s, int slots_n, int episodes, std::uint64_t seed) {
  s.upcoming = s.episode >= 0 && s.episode + slots_n < episodes ? s.episode + slots_n : -1;
  if (s.upcoming < 0) return;
  s.upcoming_rng = episode_rng(seed, s.upcoming);
  s.upcoming_seed = s.upcoming_rng();
}

}  // namespace

evaluation evaluate(model::shared_model& model, envs::env_vector& envs, int episodes, bool greedy,
                    std::uint64_t seed, std::int64_t max_steps_per_episode) {
  evaluation result;
  if (episodes <= 0) return result;
  const model::net_spec& net = model::spec_of(model);
  const int slots_n = envs.size();
  const envs::env_spec& spec = envs.spec();
  const size_t obs_size = spec.observation.flat_size();
  const size_t action_size = spec.action.flat_size();
  std::vector<slot> slots(static_cast<size_t>(slots_n));
  std::vector<float> obs(obs_size * slots_n), final_obs(obs_size * slots_n);
  std::vector<float> actions(action_size * slots_n, 0.f);
  std::vector<std::uint64_t> first(static_cast<size_t>(slots_n)), reset_seeds(first.size());
  std::vector<envs::step_result> steps(first.size());
  // A recurrent policy's state per slot, zero at every episode's start.
  const size_t state_size = size_t(net.state_size());
  std::vector<float> states(state_size * slots_n, 0.f);
  result.returns.assign(episodes, 0.0);
  result.lengths.assign(episodes, 0);
  for (int i = 0; i < slots_n; ++i) {
    slot& s = slots[size_t(i)];
    s.episode = i < episodes ? i : -1;
    s.rng = episode_rng(seed, std::max(i, 0));
    first[size_t(i)] = s.rng();
    plan_next(s, slots_n, episodes, seed);
  }
  envs.reset(first.data(), obs.data());

  model::prediction out;
  for (int running = std::min(slots_n, episodes); running > 0;) {
    // Idle slots keep stepping with action zero; their rows are ignored.
    model::predict(model, obs.data(), state_size ? states.data() : nullptr, slots_n, out);
    states.swap(out.states);
    for (int i = 0; i < slots_n; ++i) {
      slot& s = slots[size_t(i)];
      reset_seeds[size_t(i)] = s.upcoming >= 0 ? s.upcoming_seed : 0;  // 0: no next episode
      if (s.episode < 0) continue;
      choose_action(net, spec.action, &out.policy[size_t(i) * net.action_size],
                    out.log_std.data(), greedy, s.rng, &actions[size_t(i) * action_size]);
    }
    envs.step(actions.data(), reset_seeds.data(), obs.data(), steps.data(), final_obs.data());
    running = 0;
    for (int i = 0; i < slots_n; ++i) {
      slot& s = slots[size_t(i)];
      if (s.episode < 0) continue;
      const envs::step_result& step = steps[size_t(i)];
      s.total += step.reward;
      ++s.length;
      const bool ended = step.terminated || step.truncated;
      if (ended || s.length >= max_steps_per_episode) {
        result.returns[size_t(s.episode)] = s.total;
        result.lengths[size_t(s.episode)] = s.length;
        std::fill_n(states.begin() + i * state_size, state_size, 0.f);
        s.episode = s.upcoming;
        s.total = 0;
        s.length = 0;
        if (s.episode >= 0) {
          s.rng = s.upcoming_rng;
          // Cut short by max_steps_per_episode: the vector did not reset it.
          if (!ended) envs.reset_one(i, s.upcoming_seed, &obs[size_t(i) * obs_size]);
          plan_next(s, slots_n, episodes, seed);
        }
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

evaluation evaluate(model::shared_model& model, const envs::env_config& config, int episodes,
                    bool greedy, std::uint64_t seed, std::int64_t max_steps_per_episode,
                    int parallel) {
  const auto envs =
      envs::make_env_vector(config, std::max(1, std::min(parallel, std::max(episodes, 1))));
  return evaluate(model, *envs, episodes, greedy, seed, max_steps_per_episode);
}

}  // namespace troupe::agents
