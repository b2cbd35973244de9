#include "agents/policy_overlay.hpp"

#include "algo/sampling.hpp"

namespace troupe::agents {

void show_policy(viewer::overlay_info& info, const float* policy, int action_size,
                 bool continuous, const float* action, const std::vector<std::string>& labels,
                 const std::uint8_t* legal) {
  info.action_probabilities.clear();
  info.action_values.clear();
  info.action_names.clear();
  info.chosen_action = -1;
  if (!continuous) {
    info.action_probabilities.resize(size_t(action_size));
    algo::categorical_probabilities(policy, action_size, info.action_probabilities.data(), legal);
    info.chosen_action = static_cast<std::int32_t>(action[0]);
    info.action_names = labels;
    return;
  }
  info.action_values.assign(policy, policy + action_size);
  info.action_values.insert(info.action_values.end(), action, action + action_size);
  if (action_size == 1) {
    info.action_names = {"mean", "act"};
    return;
  }
  for (int j = 1; j <= action_size; ++j) info.action_names.push_back("mu" + std::to_string(j));
  for (int j = 1; j <= action_size; ++j) info.action_names.push_back("a" + std::to_string(j));
}

}  // namespace troupe::agents
