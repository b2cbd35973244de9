#include "algo/rollout.hpp"

#include "algo/action_mask.hpp"

namespace troupe::algo {

std::string rollout_shape_error(const rollout& r) {
  if (r.n_steps <= 0 || r.n_envs <= 0 || r.obs_size <= 0 || r.action_size <= 0) return "empty";
  if (r.state_size < 0 || r.initial_states.size() != size_t(r.n_envs) * size_t(r.state_size))
    return "initial states have the wrong size";
  const size_t n = static_cast<size_t>(r.samples());
  if (r.observations.size() != (n + r.n_envs) * r.obs_size)
    return "observations have the wrong size";
  if (r.actions.size() != n * r.action_size || r.rewards.size() != n ||
      r.terminated.size() != n || r.truncated.size() != n || r.behaviour_logp.size() != n ||
      r.behaviour_version.size() != n)
    return "per-sample arrays have the wrong size";
  if (r.mask_size < 0 || r.action_masks.size() != n * size_t(r.mask_size))
    return "action masks have the wrong size";
  if (r.mask_size > 0) {
    // A row's split among several components is the model's to know
    // (learner checks it); with one, the whole row is the action's.
    if (r.action_size == 1)
      if (const std::string problem = rollout_mask_error(r, {r.mask_size}); !problem.empty()) return problem;
  }
  size_t truncations = 0;
  for (auto t : r.truncated) truncations += t ? 1 : 0;
  if (r.truncation_observations.size() != truncations * r.obs_size)
    return "truncation observations do not match the truncation flags";
  return "";
}

std::string rollout_mask_error(const rollout& r, const std::vector<int>& heads) {
  long choices = 0;
  for (int n : heads) choices += n;
  if (r.mask_size != choices || r.action_size < long(heads.size()))
    return "action masks do not match the action's components";
  if (std::string problem = mask_problem(r.action_masks.data(), r.samples(), heads); !problem.empty())
    return problem;
  return illegal_action_problem(r.actions.data(), r.action_masks.data(), r.samples(), heads, r.action_size);
}

}  // namespace troupe::algo
