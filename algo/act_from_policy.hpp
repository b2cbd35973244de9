#pragma once
// From a row of the policy head's output to an action, the one way every
// part that acts does it: the model-owner for the agents, evaluation, and
// `troupe play`. Plain C++.
#include <cstdint>
#include <random>

#include "model/net_spec.hpp"

namespace troupe::algo {

// Floats per action: a Box action's values, or one categorical index per
// component (one for a Discrete action), then a hybrid action's Box values.
inline int action_width(const model::net_spec& net) {
  return net.continuous ? net.action_size : int(net.heads().size()) + net.gaussian_size;
}

// Writes action_width(net) floats to `action`: drawn from the policy, or its
// most probable action when `greedy` (a Gaussian's mean). Returns their
// log-probability (density) under the policy. `policy` holds net.action_size
// floats (logits, or a Gaussian's means); `log_std` a Gaussian's
// net.gaussian_dims() log standard deviations (unused for a categorical);
// `legal`, for a categorical, its action mask (algo/action_mask.hpp) or null.
// A categorical of several components (net.action_heads) picks each one's
// index from its own logits and mask; the log-probability is their sum. A
// hybrid policy picks its components so, then draws its Box part from the
// Gaussian whose means follow the logits, adding its log-density.
float act_from_policy(const model::net_spec& net, const float* policy, const float* log_std,
                      bool greedy, std::mt19937_64& rng, float* action,
                      const std::uint8_t* legal = nullptr);

}  // namespace troupe::algo
