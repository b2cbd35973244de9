#include "envs/policy_rollout.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace troupe::envs {

fixed_policy parse_fixed_policy(const std::string& name) {
  if (name == "random") return fixed_policy::random;
  if (name == "noop") return fixed_policy::noop;
  throw std::invalid_argument("unknown policy '" + name + "' (expected random or noop)");
}

std::string to_string(fixed_policy policy) {
  return policy == fixed_policy::random ? "random" : "noop";
}

fixed_policy_actions::fixed_policy_actions(fixed_policy policy, const space& action_space,
                                           std::uint64_t seed)
    : policy_(policy), space_(action_space), action_(action_space.flat_size(), 0.0f),
      rng_(seed) {
  for (int choices : space_.categories())
    if (choices < 1) throw std::invalid_argument("a discrete action space needs at least one action");
  const size_t box = size_t(space_.continuous_size());
  if (box > 0 && policy_ == fixed_policy::random) {
    if (space_.low.size() != box || space_.high.size() != box)
      throw std::invalid_argument("a box action space needs one bound per element");
    for (size_t i = 0; i < box; ++i)
      if (!std::isfinite(space_.low[i]) || !std::isfinite(space_.high[i]))
        throw std::invalid_argument("the random policy needs a bounded box action space");
  }
}

void fixed_policy_actions::draw_box() {
  // A hybrid action's Box values follow its components' indices.
  const size_t first = action_.size() - size_t(space_.continuous_size());
  for (size_t i = first; i < action_.size(); ++i) {
    std::uniform_real_distribution<double> pick(space_.low[i - first], space_.high[i - first]);
    action_[i] = static_cast<float>(pick(rng_));
  }
}

const float* fixed_policy_actions::next() {
  if (policy_ == fixed_policy::noop) return action_.data();  // zeros, never written
  const std::vector<int> heads = space_.categories();
  for (size_t j = 0; j < heads.size(); ++j)
    action_[j] = static_cast<float>(std::uniform_int_distribution<int>(0, heads[j] - 1)(rng_));
  draw_box();
  return action_.data();
}

const float* fixed_policy_actions::next_for(const env& e) {
  if (!e.spec().has_action_mask) return next();
  legal_.assign(size_t(space_.choice_count()), 0);
  e.action_mask(legal_.data());
  // Each component: uniform among its legal choices (noop: the first).
  const std::vector<int> heads = space_.categories();
  size_t offset = 0;
  for (size_t j = 0; j < heads.size(); offset += size_t(heads[j++])) {
    std::vector<int> allowed;
    for (int a = 0; a < heads[j]; ++a)
      if (legal_[offset + size_t(a)]) allowed.push_back(a);
    if (allowed.empty())
      throw std::runtime_error(e.spec().id + ": an action mask with no legal action");
    const size_t pick = policy_ == fixed_policy::noop
                            ? 0
                            : std::uniform_int_distribution<size_t>(0, allowed.size() - 1)(rng_);
    action_[j] = static_cast<float>(allowed[pick]);
  }
  if (policy_ == fixed_policy::random) draw_box();
  return action_.data();
}

summary_stats summarize(const std::vector<double>& values) {
  summary_stats s;
  if (values.empty()) return s;
  double sum = 0.0;
  for (double v : values) sum += v;
  s.mean = sum / values.size();
  double squares = 0.0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(squares / values.size());
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

rollout_result run_policy_rollout(env& environment, const rollout_options& options) {
  if (options.episodes < 1) throw std::invalid_argument("episodes must be at least 1");
  if (options.max_steps_per_episode < 1)
    throw std::invalid_argument("max_steps_per_episode must be at least 1");
  const env_spec& spec = environment.spec();
  std::vector<float> observation(spec.observation.flat_size());
  fixed_policy_actions actions(options.policy, spec.action, options.seed + 1);
  std::mt19937_64 reset_seeds(options.seed);

  rollout_result result;
  for (int episode = 0; episode < options.episodes; ++episode) {
    environment.reset(reset_seeds(), observation.data());
    double episode_return = 0.0;
    int length = 0;
    bool done = false;
    while (!done && length < options.max_steps_per_episode) {
      const step_result step = environment.step(actions.next_for(environment), observation.data());
      episode_return += step.reward;
      ++length;
      done = step.terminated || step.truncated;
    }
    if (!done) ++result.episodes_cut;
    result.returns.push_back(episode_return);
    result.lengths.push_back(length);
  }
  result.return_stats = summarize(result.returns);
  result.length_stats =
      summarize(std::vector<double>(result.lengths.begin(), result.lengths.end()));
  return result;
}

}  // namespace troupe::envs
