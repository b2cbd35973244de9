#pragma once
// The learning algorithm's hyperparameters: the `algo` section of a run
// config. Defaults here; actors/config_loader.cpp reads, checks and documents
// every key.
#include <cstdint>

namespace troupe::algo {

// A3C: every batch trains once, one update. PPO: every batch trains for
// several epochs of clipped minibatch updates (algo/ppo_update.cpp).
enum class algo_kind { a3c, ppo };

enum class optimizer_kind { rmsprop, adam };

// Off-policy correction of the policy lag (A3C).
enum class correction_kind { none, vtrace };

// The learning rate: constant, or annealed linearly to 0 over the run's
// env-step budget (run.stop.env_steps).
enum class lr_schedule_kind { constant, linear };

// What PPO's advantages and value targets are: GAE, or V-trace (which also
// corrects for the behaviour policy's lag).
enum class ppo_targets_kind { gae, vtrace };

struct ppo_config {
  int epochs = 4;           // passes over each batch
  int minibatches = 4;      // per epoch (whole environment sequences for a recurrent policy)
  double clip = 0.2;        // of the probability ratio
  double value_clip = 0.0;  // > 0: the value's change from the batch's start is clipped to +-this
  double target_kl = 0.0;   // > 0: no further epoch once an epoch's mean approximate KL exceeds it
  ppo_targets_kind targets = ppo_targets_kind::gae;
  bool normalize_advantages = true;  // per minibatch
};

struct algo_config {
  algo_kind kind = algo_kind::a3c;
  double gamma = 0.99;
  int n_steps = 5;                 // env steps per rollout and environment
  int batch_rollouts = 1;          // rollouts trained together, from any agents, in arrival order
  double lr = 7e-4;
  lr_schedule_kind lr_schedule = lr_schedule_kind::constant;
  optimizer_kind optimizer = optimizer_kind::rmsprop;  // PPO's default is adam (the config loader)
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
  ppo_config ppo;
};

}  // namespace troupe::algo
