#pragma once
// The learning algorithm's hyperparameters: the `algo` section of a run
// config. Defaults here; run/config_keys.cpp lists, reads, checks and documents
// every key.
#include <algorithm>
#include <cstdint>

namespace troupe::algo {

// A3C: every batch trains once, one update. PPO: every batch trains for
// several epochs of clipped minibatch updates (algo/ppo_update.cpp).
enum class algo_kind { a3c, ppo };

enum class optimizer_kind { rmsprop, adam };

// Off-policy correction of the policy lag (A3C).
enum class correction_kind { none, vtrace };

// The learning rate: constant, or annealed linearly from algo.lr to
// algo.lr_final over algo.lr_schedule_env_steps (0: the run's env-step
// budget, run.stop.env_steps), and held there after.
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
  // Advantages and value targets computed again with the current network
  // before every epoch after the first (Andrychowicz et al. 2020, "What
  // matters in on-policy RL"), rather than once per batch.
  bool recompute_advantages = false;
};

struct algo_config {
  algo_kind kind = algo_kind::a3c;
  double gamma = 0.99;
  int n_steps = 5;                 // env steps per rollout and environment
  int batch_rollouts = 1;          // rollouts trained together, from any agents, in arrival order
  double lr = 7e-4;
  lr_schedule_kind lr_schedule = lr_schedule_kind::constant;
  std::int64_t lr_schedule_env_steps = 0;  // linear: the schedule's length; 0: run.stop.env_steps
  double lr_final = 0.0;                   // linear: the learning rate at its end and after
  optimizer_kind optimizer = optimizer_kind::rmsprop;  // PPO's default is adam (the config loader)
  double entropy_coef = 0.01;
  double value_coef = 0.5;
  double max_grad_norm = 0.5;      // 0 disables clipping
  // A hybrid action's Gaussian means beyond its Box part's bounds cost this
  // times the square of the excess (learner_core::with_bounds_penalty).
  double bounds_coef = 1.0;
  double rmsprop_alpha = 0.99;
  double optimizer_eps = 1e-5;
  int max_rollouts_in_flight = 2;  // per agent: rollouts sent but not yet trained
  // The policy lag's bound, whatever the number of agents (algo/collection_budget.hpp);
  // 0: automatic, see below.
  int rollout_budget = 0;          // rollouts collected or waiting to train at once, per learner
  int max_policy_lag = 0;          // versions: older rollouts are dropped, not trained
  correction_kind correction = correction_kind::none;  // A3C's default is vtrace (the config loader)
  double vtrace_rho_bar = 1.0;
  double vtrace_c_bar = 1.0;
  double reward_scale = 1.0;  // rewards are multiplied by this for learning only
  double gae_lambda = 1.0;    // < 1: generalised advantage estimation (1: n-step returns)
  ppo_config ppo;
};

// Updates one batch makes: A3C 1, PPO one per minibatch of every epoch.
inline int updates_per_batch(const algo_config& a) {
  return a.kind == algo_kind::ppo ? a.ppo.epochs * a.ppo.minibatches : 1;
}

// algo.rollout_budget, 0 resolved: two batches' rollouts, and at least 4,
// so that one batch fills while the one before trains, as two agents of
// two rollouts in flight each do (what the configs were tuned with).
// Measured on CartPole A3C with 8 and 32 agents (docs/algorithms.md): 2, 4
// and 8 all solve; 4 was the fastest, at a lag near 3 as with 2 agents.
inline int rollout_budget(const algo_config& a) {
  return a.rollout_budget > 0 ? a.rollout_budget : std::max(4, 2 * a.batch_rollouts);
}

// algo.max_policy_lag, 0 resolved: eight batches' updates. A safety net:
// within the budget above the lag stays near 3 batches' worth; what
// exceeds this comes of a start with many agents at once (the learner
// cannot hold back agents it has not heard from yet), or a stall.
inline int max_policy_lag(const algo_config& a) {
  return a.max_policy_lag > 0 ? a.max_policy_lag : 8 * updates_per_batch(a);
}

}  // namespace troupe::algo
