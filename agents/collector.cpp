#include "agents/collector.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "algo/action_mask.hpp"

namespace troupe::agents {

void clip_to_space(const envs::space& action_space, float* actions, int rows) {
  const size_t box = size_t(action_space.continuous_size());
  if (box == 0) return;
  // A hybrid action's Box values follow its components' indices.
  const size_t width = size_t(action_space.flat_size()), first = width - box;
  for (int r = 0; r < rows; ++r)
    for (size_t j = 0; j < box; ++j) {
      float& a = actions[size_t(r) * width + first + j];
      a = static_cast<float>(std::clamp<double>(a, action_space.low[j], action_space.high[j]));
    }
}

collector::collector(envs::env_vector& environments, const collector_config& config,
                     seed_source seeds)
    : envs_(&environments), config_(config), seeds_(std::move(seeds)) {
  const envs::env_spec& s = envs_->spec();
  k_ = envs_->size();
  obs_size_ = s.observation.flat_size();
  action_width_ = s.action.flat_size();
  states_.assign(size_t(k_) * config_.state_size, 0.f);
  clipped_.resize(size_t(k_) * action_width_);
  final_observations_.resize(size_t(k_) * obs_size_);
  results_.resize(size_t(k_));
  returns_.assign(size_t(k_), 0.0);
  lengths_.assign(size_t(k_), 0);
  episodes_.assign(size_t(k_), 0);
  if (config_.n_steps > 0) {
    start_rollout();  // sizes the rollout's observation rows
  } else {
    own_observations_.resize(size_t(k_) * obs_size_);
  }
  std::vector<std::uint64_t> first(static_cast<size_t>(k_));
  for (int e = 0; e < k_; ++e) first[size_t(e)] = seeds_(e);
  envs_->reset(first.data(), row(0));
  if (s.has_action_mask) {
    masks_.resize(size_t(k_) * size_t(s.action.choice_count()));
    read_masks();
  }
  next_seeds_.resize(size_t(k_));
  for (int e = 0; e < k_; ++e) next_seeds_[size_t(e)] = seeds_(e);
}

float* collector::row(int t) {
  if (config_.n_steps == 0) return own_observations_.data();
  return current_.observations.data() + size_t(t) * k_ * obs_size_;
}

const float* collector::observations() const {
  return const_cast<collector*>(this)->row(step_);
}

void collector::read_masks() {
  if (masks_.empty()) return;
  envs_->action_masks(masks_.data());
  const envs::env_spec& s = envs_->spec();
  if (const std::string problem = algo::mask_problem(masks_.data(), k_, s.action.categories());
      !problem.empty())
    throw std::runtime_error(s.id + ": " + problem + " (row = environment; " +
                             std::to_string(k_) + " environments of " + s.action.describe() + ")");
}

void collector::start_rollout() {
  algo::rollout& r = current_;
  r.agent_id = config_.agent_id;
  r.sequence = next_sequence_++;
  r.n_steps = config_.n_steps;
  r.n_envs = k_;
  r.obs_size = obs_size_;
  r.action_size = action_width_;
  r.state_size = config_.state_size;
  r.mask_size = envs_->spec().has_action_mask ? envs_->spec().action.choice_count() : 0;
  r.action_masks.clear();
  r.initial_states = states_;  // where training unrolls the core from
  r.observations.resize(size_t(config_.n_steps + 1) * k_ * obs_size_);
  r.actions.clear();
  r.rewards.clear();
  r.terminated.clear();
  r.truncated.clear();
  r.behaviour_logp.clear();
  r.behaviour_version.clear();
  r.truncation_observations.clear();
  step_ = 0;
}

std::optional<algo::rollout> collector::step(const float* actions, const float* logp,
                                             std::uint64_t version,
                                             const std::vector<float>& next_states) {
  const size_t width = size_t(action_width_);
  std::copy(actions, actions + size_t(k_) * width, clipped_.begin());
  clip_to_space(envs_->spec().action, clipped_.data(), k_);
  // Without rollouts the next observations overwrite the current ones (the
  // actions for them are taken already).
  float* next = config_.n_steps > 0 ? row(step_ + 1) : row(0);
  // The masks of the states acted on: what the behaviour policy sampled under.
  if (config_.n_steps > 0) current_.action_masks.insert(current_.action_masks.end(), masks_.begin(), masks_.end());
  envs_->step(clipped_.data(), next_seeds_.data(), next, results_.data(), final_observations_.data());
  read_masks();
  states_ = next_states;
  finished_.clear();
  const bool rollouts = config_.n_steps > 0;
  algo::rollout& r = current_;
  for (int e = 0; e < k_; ++e) {
    const envs::step_result& res = results_[size_t(e)];
    if (rollouts) {
      r.actions.insert(r.actions.end(), actions + size_t(e) * width, actions + size_t(e + 1) * width);
      r.rewards.push_back(static_cast<float>(res.reward));
      r.terminated.push_back(res.terminated);
      r.truncated.push_back(res.truncated);
      r.behaviour_logp.push_back(logp[e]);
      r.behaviour_version.push_back(version);
      if (res.truncated) {
        const float* last = &final_observations_[size_t(e) * obs_size_];
        r.truncation_observations.insert(r.truncation_observations.end(), last, last + obs_size_);
      }
    }
    returns_[size_t(e)] += res.reward;
    ++lengths_[size_t(e)];
    if (res.terminated || res.truncated) {
      finished_.push_back({e, returns_[size_t(e)], lengths_[size_t(e)]});
      ++episodes_[size_t(e)];
      returns_[size_t(e)] = 0;
      lengths_[size_t(e)] = 0;
      next_seeds_[size_t(e)] = seeds_(e);
      std::fill_n(states_.begin() + size_t(e) * config_.state_size, config_.state_size, 0.f);
    }
  }
  if (!rollouts || ++step_ < config_.n_steps) return std::nullopt;
  algo::rollout done = std::move(current_);
  current_ = algo::rollout{};
  start_rollout();
  // The new rollout starts where the old one ended.
  const size_t rows = size_t(k_) * obs_size_;
  std::copy(done.observations.end() - rows, done.observations.end(), row(0));
  return done;
}

void collector::restart(int e) {
  envs_->reset_one(e, next_seeds_[size_t(e)], row(step_) + size_t(e) * obs_size_);
  read_masks();
  next_seeds_[size_t(e)] = seeds_(e);
  returns_[size_t(e)] = 0;
  lengths_[size_t(e)] = 0;
  std::fill_n(states_.begin() + size_t(e) * config_.state_size, config_.state_size, 0.f);
}

}  // namespace troupe::agents
