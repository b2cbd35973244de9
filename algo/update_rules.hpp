#pragma once
// The update rules the learner (algo/learner.cpp) chooses between by
// algo.kind: each takes a batch (merged into one rollout, rewards already
// normalised) and returns what it did. The learner fills in the batch's ids.
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"

namespace troupe::algo {

struct learner_core;
struct step_outcome;

train_result a3c_update(learner_core& core, const rollout& batch);  // algo/a3c_update.cpp
train_result ppo_update(learner_core& core, const rollout& batch);  // algo/ppo_update.cpp

// What an A3C update reports, by LibTorch's path or by hand's
// (algo/mlp_a3c_step.cpp): its one step and its loss's terms.
struct a3c_loss_values {
  double total = 0, policy = 0, value = 0, entropy = 0;
};
train_result a3c_train_result(const step_outcome& step, std::int64_t samples, const a3c_loss_values& loss);

}  // namespace troupe::algo
