#pragma once
// Action masks: which of a Discrete space's actions are legal in a state. A
// mask row holds one byte per action, 1 where the action is legal, 0 where
// it is not. A masked action is never sampled nor chosen greedily, and the
// learner's log-probabilities and entropy are those of the policy
// renormalised over the legal actions. Plain C++.
#include <cstdint>
#include <string>

namespace troupe::algo {

// What a masked action's logit becomes in the learner (and in an exported
// policy): so far below any real logit that its probability is exactly 0,
// yet finite, so that p log p is 0 and not NaN.
constexpr float masked_logit = -1e9f;

// Why `rows` mask rows of `n` actions each cannot be used, naming the first
// bad row ("" when they can): a byte other than 0 or 1, or no legal action.
std::string mask_problem(const std::uint8_t* masks, long rows, int n);

}  // namespace troupe::algo
