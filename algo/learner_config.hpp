#pragma once
// What a learner is built with: the algorithm's hyperparameters and what the
// run adds to them (reward normalisation, the schedule's budget, a seed).
#include <cstdint>
#include <vector>

#include "algo/algo_config.hpp"
#include "model/net_spec.hpp"

namespace troupe::algo {

struct learner_config {
  algo_config algo;
  model::normalize_config normalize;    // .reward: rewards are scaled for learning
  // algo.lr_schedule linear: the lr reaches algo.lr_final here
  // (algo.lr_schedule_env_steps, or run.stop.env_steps when that is 0).
  std::int64_t schedule_env_steps = 0;
  std::uint64_t seed = 1;               // PPO's minibatch shuffles
  // A hybrid action's Box part's bounds, for algo.bounds_coef's penalty;
  // empty: no penalty.
  std::vector<double> action_low = {}, action_high = {};
};

}  // namespace troupe::algo
