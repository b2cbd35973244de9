#pragma once
// Reward normalisation (env.normalize.reward): rewards are divided by the
// running standard deviation of the discounted return, then clipped, for
// learning only (the metrics keep the true returns). Each environment's
// discounted return runs on across its agent's rollouts, which reach the
// learner in the order the agent sent them. Plain C++.
#include <cstdint>
#include <map>
#include <utility>

#include "algo/rollout.hpp"
#include "model/running_moments.hpp"

namespace troupe::algo {

class reward_normalizer {
 public:
  reward_normalizer(double gamma, double clip, double epsilon)
      : gamma_(gamma), clip_(clip), epsilon_(epsilon) {}

  // Scales r's rewards in place. Step by step: each environment's return
  // G = gamma G + reward is folded into `moments` (one value per environment
  // and step), the step's rewards are divided by sqrt(var + epsilon) and
  // clipped to +-clip, and G restarts at 0 where an episode ended.
  void scale(rollout& r, model::running_moments& moments);
  // The discount of the returns from now on (algo.gamma changed mid-run).
  void set_gamma(double gamma) { gamma_ = gamma; }

 private:
  double gamma_, clip_, epsilon_;
  std::map<std::pair<std::uint32_t, int>, double> returns_;  // (agent, env): G
};

}  // namespace troupe::algo
