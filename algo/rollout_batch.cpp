#include "algo/rollout_batch.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace troupe::algo {

namespace {

// Environment `env` of rollout `part`.
using column = std::pair<const rollout*, int>;

// Where each sample's truncation observation starts in r.truncation_observations
// (-1: the sample was not truncated).
std::vector<long> truncation_offsets(const rollout& r) {
  std::vector<long> offsets(r.truncated.size(), -1);
  long next = 0;
  for (size_t i = 0; i < r.truncated.size(); ++i)
    if (r.truncated[i]) offsets[i] = (next++) * r.obs_size;
  return offsets;
}

// The rollout made of `columns`, time-major: row t holds each column's
// environment at step t, in the order of `columns`.
rollout gather(const std::vector<column>& columns) {
  const rollout& first = *columns.front().first;
  rollout out;
  out.agent_id = first.agent_id;
  out.sequence = first.sequence;
  out.n_steps = first.n_steps;
  out.n_envs = static_cast<std::int32_t>(columns.size());
  out.obs_size = first.obs_size;
  out.action_size = first.action_size;
  out.state_size = first.state_size;
  out.mask_size = first.mask_size;
  const size_t mask = size_t(out.mask_size);
  const size_t obs = size_t(out.obs_size), width = size_t(out.action_size),
               state = size_t(out.state_size);
  std::vector<std::pair<const rollout*, std::vector<long>>> cuts;
  auto cuts_of = [&](const rollout* r) -> const std::vector<long>& {
    for (const auto& c : cuts)
      if (c.first == r) return c.second;
    cuts.emplace_back(r, truncation_offsets(*r));
    return cuts.back().second;
  };
  for (const auto& [r, e] : columns) {
    const float* s = r->initial_states.data() + size_t(e) * state;
    out.initial_states.insert(out.initial_states.end(), s, s + state);
  }
  for (int t = 0; t <= out.n_steps; ++t)
    for (const auto& [r, e] : columns) {
      const float* o = r->observations.data() + (size_t(t) * r->n_envs + e) * obs;
      out.observations.insert(out.observations.end(), o, o + obs);
    }
  for (int t = 0; t < out.n_steps; ++t)
    for (const auto& [r, e] : columns) {
      const size_t i = size_t(t) * r->n_envs + e;
      const float* a = r->actions.data() + i * width;
      out.actions.insert(out.actions.end(), a, a + width);
      out.rewards.push_back(r->rewards[i]);
      out.terminated.push_back(r->terminated[i]);
      out.truncated.push_back(r->truncated[i]);
      out.behaviour_logp.push_back(r->behaviour_logp[i]);
      out.behaviour_version.push_back(r->behaviour_version[i]);
      const std::uint8_t* m = r->action_masks.data() + i * mask;
      out.action_masks.insert(out.action_masks.end(), m, m + mask);
      if (r->truncated[i]) {
        const float* cut = r->truncation_observations.data() + cuts_of(r)[i];
        out.truncation_observations.insert(out.truncation_observations.end(), cut, cut + obs);
      }
    }
  return out;
}

}  // namespace

rollout merge_rollouts(const std::vector<rollout>& parts) {
  if (parts.empty()) throw std::invalid_argument("merge_rollouts: no rollouts");
  std::vector<column> columns;
  const rollout& first = parts.front();
  for (const rollout& r : parts) {
    if (r.n_steps != first.n_steps || r.obs_size != first.obs_size ||
        r.action_size != first.action_size || r.state_size != first.state_size ||
        r.mask_size != first.mask_size)
      throw std::invalid_argument("merge_rollouts: rollout " + std::to_string(r.sequence) +
                                  " of agent " + std::to_string(r.agent_id) +
                                  " is of another shape than the batch's first");
    for (int e = 0; e < r.n_envs; ++e) columns.emplace_back(&r, e);
  }
  return gather(columns);
}

rollout select_envs(const rollout& r, const std::vector<int>& envs) {
  if (envs.empty()) throw std::invalid_argument("select_envs: no environments");
  std::vector<column> columns;
  for (int e : envs) {
    if (e < 0 || e >= r.n_envs)
      throw std::invalid_argument("select_envs: environment " + std::to_string(e) + " of " +
                                  std::to_string(r.n_envs));
    columns.emplace_back(&r, e);
  }
  return gather(columns);
}

}  // namespace troupe::algo
