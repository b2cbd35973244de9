// PPO's update, read top to bottom: the batch's targets once, then epochs of
// shuffled minibatches, each minibatch one clipped update of the shared
// parameters (one version). The batch was acted by agents that may be
// several versions behind (the policy lag): the probability ratio is taken
// against the policy that acted, as asynchronous PPO does, and V-trace
// targets (algo.ppo.targets: vtrace) correct the value targets for the lag.
#include <algorithm>

#include "algo/learner_core.hpp"
#include "algo/minibatches.hpp"
#include "algo/mlp_ppo_step.hpp"
#include "algo/ppo_loss.hpp"
#include "algo/rollout_batch.hpp"
#include "algo/targets.hpp"
#include "algo/update_rules.hpp"

namespace troupe::algo {

namespace {

// The trained network's outputs for one minibatch, and which of the batch's
// samples they belong to.
struct minibatch_pass {
  torch::Tensor samples;  // int64: the batch's sample indices, in output order
  model::actor_critic_output out;
  rollout part;           // a recurrent minibatch's rollout (its rows feed `out`)
};

// Feed-forward: the minibatch's samples, each on its own.
minibatch_pass forward_samples(learner_core& core, const torch::Tensor& observations,
                               const std::vector<std::int64_t>& samples) {
  minibatch_pass pass;
  pass.samples = core.on_device(torch::tensor(samples, torch::kInt64));
  const torch::Tensor rows = observations.index_select(0, pass.samples);
  model::shared_model& m = *core.model;
  pass.out = m.params.run_shared([&] { return m.net->forward(rows); });
  return pass;
}

// Recurrent: whole sequences of the minibatch's environments, each unrolled
// from the state its rollout began with.
minibatch_pass forward_sequences(learner_core& core, const rollout& batch,
                                 const std::vector<std::int64_t>& envs) {
  minibatch_pass pass;
  pass.part = select_envs(batch, std::vector<int>(envs.begin(), envs.end()));
  std::vector<std::int64_t> samples;
  for (int t = 0; t < batch.n_steps; ++t)
    for (std::int64_t e : envs) samples.push_back(std::int64_t(t) * batch.n_envs + e);
  pass.samples = core.on_device(torch::tensor(samples, torch::kInt64));
  const std::int64_t n = pass.part.samples();
  model::actor_critic_output out = core.run(pass.part).out;
  pass.out = {out.policy.slice(0, 0, n), out.log_std, out.values.slice(0, 0, n), {}};
  return pass;
}

torch::Tensor tensor_of(learner_core& core, std::vector<float> values) {
  return core.on_device(torch::tensor(values, torch::kFloat32));
}

}  // namespace

train_result ppo_update(learner_core& core, const rollout& batch) {
  const algo_config& cfg = core.config.algo;
  const ppo_config& ppo = cfg.ppo;
  const std::int64_t samples = batch.samples();
  const torch::Tensor actions = core.taken_actions(batch);
  const torch::Tensor legal = core.legal_actions(batch);  // undefined: no masks

  // 1. The targets from what the network says of the batch's states now
  // (and, for V-trace, of the actions taken): once, or again before every
  // epoch (algo.ppo.recompute_advantages), so that later epochs' advantages
  // follow the value function they train.
  algo_config rule = cfg;
  rule.correction = ppo.targets == ppo_targets_kind::vtrace ? correction_kind::vtrace : correction_kind::none;
  const auto targets_now = [&](rollout_outputs& outputs) {
    torch::NoGradGuard no_grad;
    outputs = core.run(batch);
    std::vector<float> target_logp;
    if (ppo.targets == ppo_targets_kind::vtrace) {
      const torch::Tensor lp =
          core.terms(outputs.out.policy.slice(0, 0, samples), outputs.out.log_std, actions, legal)
              .logp.to(torch::kCPU)
              .contiguous();
      target_logp.assign(lp.data_ptr<float>(), lp.data_ptr<float>() + samples);
    }
    return compute_targets(rule, batch, outputs.values, outputs.next_values, target_logp);
  };
  rollout_outputs start;
  learning_targets targets = targets_now(start);
  // Per sample, side by side, so that a minibatch takes its share of all
  // four at once: the behaviour log-probability, V at the batch's start
  // (the value clip's reference, whatever the epoch), the advantage and the
  // value target.
  const torch::Tensor behaviour_logp = tensor_of(core, batch.behaviour_logp);
  const torch::Tensor start_values = tensor_of(core, start.values);
  torch::Tensor per_sample;
  const auto gather_targets = [&] {
    per_sample = torch::stack(
        {behaviour_logp, start_values, tensor_of(core, targets.advantages), tensor_of(core, targets.returns)}, 1);
  };
  gather_targets();
  train_result result;
  measure_lag(batch, start.version, result);

  // 2. Epochs of shuffled minibatches: samples, or a recurrent policy's
  // whole environment sequences.
  const bool recurrent = batch.state_size > 0;
  const torch::Tensor observations = core.rows(batch.observations, samples);
  const std::int64_t items = recurrent ? batch.n_envs : samples;
  const int count = static_cast<int>(std::min<std::int64_t>(ppo.minibatches, items));
  const ppo_loss_settings settings{ppo.clip, ppo.value_clip, cfg.value_coef, cfg.entropy_coef,
                                   ppo.normalize_advantages};
  // The by-hand step reads `targets` through these pointers, which a
  // recomputation leaves valid (the vectors keep their sizes).
  const ppo_sample_targets by_sample{batch.behaviour_logp.data(), start.values.data(),
                                     targets.advantages.data(), targets.returns.data()};
  double loss_sum = 0, policy_sum = 0, value_sum = 0, entropy_sum = 0, kl_sum = 0, clipped_sum = 0;
  int steps = 0;
  double epoch_kl = 0;
  const auto record = [&](const step_outcome& step, std::int64_t size, double total, double policy, double value,
                          double entropy, double kl, double clip_fraction) {
    result.applied |= step.applied;
    result.frozen |= step.frozen;
    result.updates += step.applied ? 1 : 0;
    result.updates_skipped += step.finite ? 0 : 1;
    result.version = step.version;
    result.sample_passes += size;
    loss_sum += total;
    policy_sum += policy;
    value_sum += value;
    entropy_sum += entropy;
    clipped_sum += clip_fraction;
    kl_sum += kl;
    epoch_kl += kl;
    ++steps;
  };
  for (int epoch = 0; epoch < ppo.epochs; ++epoch) {
    epoch_kl = 0;
    if (epoch > 0 && ppo.recompute_advantages) {
      rollout_outputs now;
      const learning_targets fresh = targets_now(now);
      std::copy(fresh.advantages.begin(), fresh.advantages.end(), targets.advantages.begin());
      std::copy(fresh.returns.begin(), fresh.returns.end(), targets.returns.begin());
      gather_targets();
    }
    const auto minibatches = shuffled_minibatches(items, count, core.rng);
    for (const auto& minibatch : minibatches) {
      if (core.by_hand && !recurrent) {
        step_outcome step;
        const ppo_loss_by_hand& loss = core.by_hand->run(core, batch, minibatch, by_sample, settings, step);
        record(step, std::int64_t(minibatch.size()), loss.total, loss.policy, loss.value, loss.entropy,
               loss.approx_kl, loss.clip_fraction);
        continue;
      }
      const minibatch_pass pass = recurrent ? forward_sequences(core, batch, minibatch)
                                            : forward_samples(core, observations, minibatch);
      const torch::Tensor& i = pass.samples;
      const policy_terms terms =
          core.terms(pass.out.policy, pass.out.log_std, actions.index_select(0, i),
                     legal.defined() ? legal.index_select(0, i) : torch::Tensor());
      const std::vector<torch::Tensor> mine = per_sample.index_select(0, i).unbind(1);
      const ppo_loss_terms loss = ppo_loss(terms.logp, terms.entropy, pass.out.values, mine[0],
                                           mine[1], mine[2], mine[3], settings);
      const step_outcome step = core.step(core.with_bounds_penalty(loss.total, pass.out.policy));
      record(step, i.size(0), loss.total.item<double>(), loss.policy.item<double>(), loss.value.item<double>(),
             loss.entropy.item<double>(), loss.approx_kl, loss.clip_fraction);
    }
    ++result.epochs;
    // The policy has moved far enough from the one that acted.
    if (ppo.target_kl > 0 && epoch_kl / double(minibatches.size()) > ppo.target_kl) break;
  }
  result.loss = float(loss_sum / steps);
  result.policy_loss = float(policy_sum / steps);
  result.value_loss = float(value_sum / steps);
  result.entropy = float(entropy_sum / steps);
  result.approx_kl = float(kl_sum / steps);
  result.clip_fraction = float(clipped_sum / steps);
  return result;
}

}  // namespace troupe::algo
