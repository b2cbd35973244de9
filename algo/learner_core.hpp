#pragma once
// What the A3C and PPO updates share inside a learner (algo/learner.hpp):
// the model and optimiser, the network's pass over a rollout, the
// log-probabilities of the actions taken, and one atomic update. The learner
// calls an update rule (algo/update_rules.hpp), which calls down into this;
// nothing here calls back up. Includes LibTorch: only the learner's own
// files include it.
#include <functional>
#include <memory>
#include <optional>
#include <random>

#include <torch/torch.h>

#include "algo/learner_config.hpp"
#include "algo/policy_distribution.hpp"
#include "algo/reward_normalizer.hpp"
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::algo {

// The network's outputs for every row a rollout holds: its n + 1 rows of k
// observations, then its truncation observations.
struct rollout_outputs {
  model::actor_critic_output out;
  std::vector<float> values;       // V of each sample's state
  std::vector<float> next_values;  // V of the state that followed it, before any reset
  std::uint64_t version = 0;       // the parameter version they were computed with
};

// One update's outcome.
struct step_outcome {
  bool applied = false;  // reached the parameters
  bool frozen = false;   // refused: the parameters are frozen
  bool finite = true;    // false: a non-finite loss or gradient, skipped
  std::uint64_t version = 0;
};

class mlp_ppo_step;  // algo/mlp_ppo_step.hpp
class mlp_a3c_step;  // algo/mlp_a3c_step.hpp

struct learner_core {
  std::shared_ptr<model::shared_model> model;
  learner_config config;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::mt19937_64 rng;
  std::optional<reward_normalizer> rewards;  // with normalize.reward
  std::int64_t samples_seen = 0;             // by the learning-rate schedule
  // config.action_low / action_high on the model's device, made once by
  // prepare_bounds (undefined without bounds): with_bounds_penalty's.
  torch::Tensor low_bounds = {}, high_bounds = {};
  // PPO's minibatch steps by hand, where they compute this network and
  // policy and model.by_hand allows (null: LibTorch's autograd).
  std::shared_ptr<mlp_ppo_step> by_hand = {};
  // A3C's update by hand, on the same terms (null: LibTorch's autograd).
  std::shared_ptr<mlp_a3c_step> a3c_by_hand = {};

  void prepare_bounds();

  // A host tensor on the model's device.
  torch::Tensor on_device(const torch::Tensor& t) const;
  // Observation rows of `count` rows from `data` (not copied on the CPU:
  // `data` must outlive the tensor's use).
  torch::Tensor rows(const std::vector<float>& data, std::int64_t count) const;
  // The network over all of r's rows, inside the parameters' section (so one
  // version): unrolled through time for a recurrent network. With gradients
  // unless the caller turned them off.
  rollout_outputs run(const rollout& r);
  // The actions a rollout took, as its policy terms take them: int64
  // [samples] (categorical), int64 [samples, components] (several
  // categorical components) or float [samples, action_size] (Gaussian).
  torch::Tensor taken_actions(const rollout& r) const;
  // The action masks a rollout's actions were sampled under: bool
  // [samples, actions], or undefined when it has none.
  torch::Tensor legal_actions(const rollout& r) const;
  // Log-probabilities and entropies of `actions` under the policy outputs,
  // over the legal actions where `legal` is given.
  policy_terms terms(const torch::Tensor& policy, const torch::Tensor& log_std,
                     const torch::Tensor& actions, const torch::Tensor& legal = {}) const;
  // `loss` plus algo.bounds_coef times the squared excess of a hybrid
  // policy's Gaussian means (in `policy`, after the logits) beyond
  // config.action_low / action_high (prepared), summed over values and
  // averaged over rows; `loss` itself where there is no such penalty.
  torch::Tensor with_bounds_penalty(const torch::Tensor& loss, const torch::Tensor& policy) const;
  // One update: the gradients of `loss`, clipped to algo.max_grad_norm,
  // applied as one atomic update, or skipped when not finite.
  step_outcome step(const torch::Tensor& loss);
  // The same for a gradient computed already (laid out as the model's flat
  // parameters; clipped in place) of a loss whose value is `loss`; an Adam or RMSprop
  // optimiser steps by hand with `step_by_hand` (model::apply_gradients).
  step_outcome apply(const torch::Tensor& gradient, double loss, bool step_by_hand = false);
};

// Sum over samples of (version - version acted), and its largest term.
void measure_lag(const rollout& r, std::uint64_t version, train_result& result);

}  // namespace troupe::algo
