#pragma once
// What a policy made of one observation, in the viewer panel's terms. Shared
// by the agents that feed `train --view` and by `troupe play`, so both panels
// read the same.
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/overlay_info.hpp"

namespace troupe::agents {

// `policy`: the policy head's outputs for the observation (action_size
// logits, or a Gaussian's action_size means); `action`: what was taken (its
// index as a float, or action_size floats). Discrete: the action
// probabilities, the chosen one highlighted, labelled by `labels`. Continuous:
// the means, then the actions taken, labelled "mean"/"act" (or mu1.., a1..).
// `legal`: a Discrete action's mask, or null: masked actions show
// probability 0.
void show_policy(viewer::overlay_info& info, const float* policy, int action_size,
                 bool continuous, const float* action, const std::vector<std::string>& labels,
                 const std::uint8_t* legal = nullptr);

}  // namespace troupe::agents
