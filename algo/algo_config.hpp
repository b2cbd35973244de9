#pragma once
// A3C hyperparameters: the `algo` section of a run config. Defaults here;
// app/config_loader.cpp reads, checks and documents every key.

namespace troupe::algo {

enum class optimizer_kind { rmsprop, adam };

// Off-policy correction of the policy lag.
enum class correction_kind { none, vtrace };

struct algo_config {
  double gamma = 0.99;
  int n_steps = 5;                 // env steps per rollout and environment
  double lr = 7e-4;
  optimizer_kind optimizer = optimizer_kind::rmsprop;
  double entropy_coef = 0.01;
  double value_coef = 0.5;
  double max_grad_norm = 0.5;      // 0 disables clipping
  double rmsprop_alpha = 0.99;
  double optimizer_eps = 1e-5;
  int max_rollouts_in_flight = 2;  // per agent: rollouts sent but not yet trained
  correction_kind correction = correction_kind::none;
  double vtrace_rho_bar = 1.0;
  double vtrace_c_bar = 1.0;
  double reward_scale = 1.0;  // rewards are multiplied by this for learning only
  double gae_lambda = 1.0;    // < 1: generalised advantage estimation (1: n-step returns)
};

}  // namespace troupe::algo
