#pragma once
// The update rules the learner (algo/learner.cpp) chooses between by
// algo.kind: each takes a batch (merged into one rollout, rewards already
// normalised) and returns what it did. The learner fills in the batch's ids.
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"

namespace troupe::algo {

struct learner_core;

train_result a3c_update(learner_core& core, const rollout& batch);  // algo/a3c_update.cpp
train_result ppo_update(learner_core& core, const rollout& batch);  // algo/ppo_update.cpp

}  // namespace troupe::algo
