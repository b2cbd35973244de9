#include "agents/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <deque>
#include <random>
#include <tuple>
#include <utility>

#include "agents/collector.hpp"
#include "algo/act_from_policy.hpp"
#include "algo/action_mask.hpp"
#include "catalog/registry.hpp"

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
                   float* action, const std::uint8_t* legal) {
  algo::act_from_policy(net, policy, log_std, greedy, rng, action, legal);
  clip_to_space(action_space, action, 1);
}

namespace {

// Which episodes slot (environment) i of the vector plays: i, i + slots,
// i + 2 slots, ...; each episode's random stream, whose first draw seeded its
// reset. The collector asks for an episode's seed one episode ahead.
struct slot {
  int episode = -1;     // the one being played; < 0: idle, none left for it
  std::mt19937_64 rng;  // its stream: action sampling
  int next_to_plan = 0;
  std::deque<std::pair<int, std::mt19937_64>> planned;  // asked for, not yet begun
};

}  // namespace

evaluation evaluate(model::shared_model& model, envs::env_vector& envs, int episodes, bool greedy,
                    std::uint64_t seed, std::int64_t max_steps_per_episode) {
  evaluation result;
  if (episodes <= 0) return result;
  const model::net_spec& net = model::spec_of(model);
  const int slots_n = envs.size();
  std::vector<slot> slots(static_cast<size_t>(slots_n));
  for (int i = 0; i < slots_n; ++i) slots[size_t(i)].next_to_plan = i;
  // Seeds episode by episode: the next planned episode of the slot, or 0
  // (its environment idles) when it has none left.
  const auto plan = [&](int i) -> std::uint64_t {
    slot& s = slots[size_t(i)];
    if (s.next_to_plan >= episodes) {
      s.planned.emplace_back(-1, std::mt19937_64());
      return 0;
    }
    std::mt19937_64 rng = episode_rng(seed, s.next_to_plan);
    const std::uint64_t reset_seed = rng();
    s.planned.emplace_back(s.next_to_plan, rng);
    s.next_to_plan += slots_n;
    return reset_seed;
  };
  const auto begin_next = [&](int i) {
    slot& s = slots[size_t(i)];
    std::tie(s.episode, s.rng) = s.planned.front();
    s.planned.pop_front();
  };
  agents::collector_config config;
  config.state_size = net.state_size();
  agents::collector c(envs, config, plan);
  for (int i = 0; i < slots_n; ++i) begin_next(i);

  result.returns.assign(episodes, 0.0);
  result.lengths.assign(episodes, 0);
  const envs::space& action_space = c.spec().action;
  const size_t width = size_t(action_space.flat_size());
  std::vector<float> actions(width * slots_n, 0.f), logp(size_t(slots_n), 0.f);
  model::prediction out;
  const auto running = [&] {
    return std::count_if(slots.begin(), slots.end(), [](const slot& s) { return s.episode >= 0; });
  };
  while (running() > 0) {
    // Idle slots keep stepping (action zero, or their first legal one); their
    // rows are ignored.
    model::predict(model, c.observations(), net.state_size() ? c.states().data() : nullptr, slots_n, out);
    for (int i = 0; i < slots_n; ++i) {
      const std::uint8_t* legal =
          c.action_masks() ? c.action_masks() + size_t(i) * size_t(action_space.choice_count()) : nullptr;
      if (slots[size_t(i)].episode >= 0)
        choose_action(net, action_space, &out.policy[size_t(i) * net.action_size], out.log_std.data(),
                      greedy, slots[size_t(i)].rng, &actions[size_t(i) * width], legal);
      else if (legal)  // an idle environment steps on too: with a legal action
        algo::first_legal_actions(legal, action_space.categories(), &actions[size_t(i) * width]);
    }
    c.step(actions.data(), logp.data(), out.version, out.states);
    const auto record = [&](int i, double episode_return, std::int64_t length) {
      const int episode = slots[size_t(i)].episode;
      if (episode < 0) return;
      result.returns[size_t(episode)] = episode_return;
      result.lengths[size_t(episode)] = length;
    };
    for (const finished_episode& f : c.finished()) {
      record(f.env, f.episode_return, f.length);
      begin_next(f.env);
    }
    // Environments without a limit: an episode ends after max_steps_per_episode.
    for (int i = 0; i < slots_n; ++i)
      if (slots[size_t(i)].episode >= 0 && c.episode_length(i) >= max_steps_per_episode) {
        record(i, c.episode_return(i), c.episode_length(i));
        c.restart(i);
        begin_next(i);
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
      catalog::make_env_vector(config, std::max(1, std::min(parallel, std::max(episodes, 1))));
  return evaluate(model, *envs, episodes, greedy, seed, max_steps_per_episode);
}

}  // namespace troupe::agents
