#pragma once
// Rollouts side by side: a batch of rollouts read as one rollout whose
// environments are all of theirs, and a rollout cut down to some of its
// environments. Plain C++: a batch's learner and its minibatches use these.
#include <vector>

#include "algo/rollout.hpp"

namespace troupe::algo {

// One rollout holding the environments of `parts` side by side (part 0's
// first, in order), every array in sample order again. The parts must have
// the same n_steps, obs_size, action_size and state_size (std::invalid_argument
// otherwise); agent_id and sequence are part 0's.
rollout merge_rollouts(const std::vector<rollout>& parts);

// The rollout of environments `envs` of `r` only, in that order (each an
// index in [0, r.n_envs)).
rollout select_envs(const rollout& r, const std::vector<int>& envs);

}  // namespace troupe::algo
