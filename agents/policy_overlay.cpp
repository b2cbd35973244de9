#include "agents/policy_overlay.hpp"

#include "algo/sampling.hpp"

namespace troupe::agents {

void show_policy(viewer::overlay_info& info, const envs::space& action_space, const float* policy,
                 const float* action, const std::vector<std::string>& labels,
                 const std::uint8_t* legal) {
  info.action_probabilities.clear();
  info.action_values.clear();
  info.action_names.clear();
  info.chosen_actions.clear();
  info.legal_actions.clear();
  const std::vector<int> heads = action_space.categories();
  int offset = 0;
  if (!heads.empty()) {
    const int choices = action_space.choice_count();
    info.action_probabilities.resize(size_t(choices));
    for (size_t j = 0; j < heads.size(); ++j) {
      algo::categorical_probabilities(policy + offset, heads[j],
                                      info.action_probabilities.data() + offset,
                                      legal ? legal + offset : nullptr);
      info.chosen_actions.push_back(offset + static_cast<std::int32_t>(action[j]));
      if (heads.size() > 1 || action_space.type == envs::space::kind::hybrid)
        for (int a = 0; a < heads[j]; ++a)
          info.action_names.push_back(std::to_string(j) + ":" + std::to_string(a));
      offset += heads[j];
    }
    if (heads.size() == 1 && action_space.type != envs::space::kind::hybrid) info.action_names = labels;
    if (legal) info.legal_actions.assign(legal, legal + choices);
  }
  // A Box's (or a hybrid action's Box part's) means, then the values taken.
  const int size = action_space.continuous_size();
  if (size == 0) return;
  const float* mean = policy + offset;
  const float* taken = action + heads.size();
  info.action_values.assign(mean, mean + size);
  info.action_values.insert(info.action_values.end(), taken, taken + size);
  if (size == 1) {
    info.action_names.insert(info.action_names.end(), {"mean", "act"});
    return;
  }
  for (int j = 1; j <= size; ++j) info.action_names.push_back("mu" + std::to_string(j));
  for (int j = 1; j <= size; ++j) info.action_names.push_back("a" + std::to_string(j));
}

void show_other_seat(viewer::overlay_info& info, const envs::other_seat_view& other) {
  const envs::space& action_space = other.action_space;
  info.seat = other.learner_seat == 0 ? "first" : "second";
  info.other_player = other.who;
  info.other_probabilities.clear();
  info.other_chosen.clear();
  info.other_legal.clear();
  const std::vector<int> heads = action_space.categories();
  if (other.action.size() != size_t(action_space.flat_size()) || heads.empty()) return;  // no move yet, or no bars
  const std::uint8_t* legal =
      other.legal.size() == size_t(action_space.choice_count()) ? other.legal.data() : nullptr;
  if (other.policy.size() >= size_t(action_space.policy_size())) {
    viewer::overlay_info theirs;
    show_policy(theirs, action_space, other.policy.data(), other.action.data(), {}, legal);
    info.other_probabilities = std::move(theirs.action_probabilities);
    info.other_chosen = std::move(theirs.chosen_actions);
  } else {  // a player without a policy: its move alone
    int offset = 0;
    for (size_t j = 0; j < heads.size(); ++j) {
      info.other_chosen.push_back(offset + static_cast<std::int32_t>(other.action[j]));
      offset += heads[j];
    }
  }
  if (legal) info.other_legal = other.legal;
}

}  // namespace troupe::agents
