#pragma once
#include <string>

namespace troupe::agents {

// A3C hyperparameters (the `algo` section of a run config).
struct algo_config {
  double gamma = 0.99;
  int n_steps = 5;                 // env steps per rollout and environment
  double lr = 7e-4;
  std::string optimizer = "rmsprop";  // rmsprop | adam
  double entropy_coef = 0.01;
  double value_coef = 0.5;
  double max_grad_norm = 0.5;      // 0 disables clipping
  double rmsprop_alpha = 0.99;
  double optimizer_eps = 1e-5;
  int max_rollouts_in_flight = 2;  // per agent: rollouts sent but not yet trained
  std::string correction = "none";  // none | vtrace: off-policy correction of the lag
  double vtrace_rho_bar = 1.0;
  double vtrace_c_bar = 1.0;
  double reward_scale = 1.0;  // rewards are multiplied by this for learning only
  double gae_lambda = 1.0;    // < 1: generalised advantage estimation (1: n-step returns)
};

}  // namespace troupe::agents
