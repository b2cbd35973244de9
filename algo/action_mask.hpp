#pragma once
// Action masks: which of a Discrete space's actions are legal in a state. A
// mask row holds one byte per action (a MultiDiscrete space's components'
// bytes in turn), 1 where the action is legal, 0 where
// it is not. A masked action is never sampled nor chosen greedily, and the
// learner's log-probabilities and entropy are those of the policy
// renormalised over the legal actions. Plain C++.
#include <cstdint>
#include <string>
#include <vector>

namespace troupe::algo {

// What a masked action's logit becomes in the learner (and in an exported
// policy): so far below any real logit that its probability is exactly 0,
// yet finite, so that p log p is 0 and not NaN.
constexpr float masked_logit = -1e9f;

// Why `rows` mask rows of `n` actions each cannot be used, naming the first
// bad row ("" when they can): a byte other than 0 or 1, or no legal action.
std::string mask_problem(const std::uint8_t* masks, long rows, int n);
// The same for actions of several components (MultiDiscrete): a row holds
// each component's `heads[j]` entries in turn, and each needs a legal one.
std::string mask_problem(const std::uint8_t* masks, long rows, const std::vector<int>& heads);

// Each component's first legal choice, as an action (heads.size() floats).
void first_legal_actions(const std::uint8_t* legal, const std::vector<int>& heads, float* action);

// Why the taken `actions` (`rows` rows of `stride` floats, the first
// heads.size() of each the components' indices; stride 0: heads.size()) are
// not all legal under their mask rows, naming the first that is not (""
// when they are). A hybrid action's Box values follow its indices.
std::string illegal_action_problem(const float* actions, const std::uint8_t* masks, long rows,
                                   const std::vector<int>& heads, long stride = 0);

}  // namespace troupe::algo
