#pragma once
// A PPO algorithm config for the learner tests: Adam, GAE (lambda 0.95),
// `epochs` epochs of `minibatches` minibatches, lr 0.01.
#include "algo/algo_config.hpp"

namespace troupe::tests {

inline algo::algo_config ppo_algo_config(int epochs, int minibatches) {
  algo::algo_config c;
  c.kind = algo::algo_kind::ppo;
  c.optimizer = algo::optimizer_kind::adam;
  c.lr = 0.01;
  c.gae_lambda = 0.95;
  c.ppo.epochs = epochs;
  c.ppo.minibatches = minibatches;
  return c;
}

}  // namespace troupe::tests
