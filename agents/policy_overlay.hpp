#pragma once
// What a policy made of one observation, in the viewer panel's terms. Shared
// by the agents that feed `train --view` and by `troupe play`, so both panels
// read the same.
#include <cstdint>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_vector.hpp"
#include "viewer/overlay_info.hpp"

namespace troupe::agents {

// `policy`: the policy head's outputs for the observation (logits, each
// component's in turn for a MultiDiscrete action, or a Gaussian's means);
// `action`: what was taken (an index per component as floats, or the Box
// action's values). Discrete: the action probabilities, the chosen one(s)
// highlighted, labelled by `labels` (a MultiDiscrete action's entries as
// "component:choice"). Continuous: the means, then the actions taken,
// labelled "mean"/"act" (or mu1.., a1..). A hybrid action: its components'
// probabilities ("component:choice"), then its Box part's means and values.
// `legal`: a discrete action's mask, or null: masked actions show
// probability 0, drawn grey.
void show_policy(viewer::overlay_info& info, const envs::space& action_space, const float* policy,
                 const float* action, const std::vector<std::string>& labels,
                 const std::uint8_t* legal = nullptr);

// A two-player game's other seat beside the policy (info.seat,
// other_player, other_*): its probabilities at its last move when a policy
// made it, else the move alone; nothing of a move before its first one. The
// move is read in the other seat's own actions (other.action_space).
void show_other_seat(viewer::overlay_info& info, const envs::other_seat_view& other);

}  // namespace troupe::agents
