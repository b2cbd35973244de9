// A3C's update: the batch trains once, in one gradient step of the
// advantage policy gradient, the value regression and the entropy bonus;
// by hand where algo/mlp_a3c_step.hpp computes the network, else on
// LibTorch's autograd.
#include "algo/a3c_loss.hpp"
#include "algo/learner_core.hpp"
#include "algo/mlp_a3c_step.hpp"
#include "algo/targets.hpp"
#include "algo/update_rules.hpp"

namespace troupe::algo {

train_result a3c_train_result(const step_outcome& step, std::int64_t samples, const a3c_loss_values& loss) {
  train_result result;
  result.applied = step.applied;
  result.frozen = step.frozen;
  result.updates = step.applied ? 1 : 0;
  result.updates_skipped = step.finite ? 0 : 1;
  result.epochs = 1;
  result.sample_passes = samples;
  result.version = step.version;
  result.loss = float(loss.total);
  result.policy_loss = float(loss.policy);
  result.value_loss = float(loss.value);
  result.entropy = float(loss.entropy);
  return result;
}

train_result a3c_update(learner_core& core, const rollout& r) {
  if (core.a3c_by_hand) return core.a3c_by_hand->run(core, r);
  const algo_config& cfg = core.config.algo;
  const std::int64_t samples = r.samples();
  rollout_outputs now = core.run(r);
  const policy_terms terms =
      core.terms(now.out.policy.slice(0, 0, samples), now.out.log_std, core.taken_actions(r),
                 core.legal_actions(r));
  std::vector<float> target_logp;
  if (cfg.correction == correction_kind::vtrace) {
    const torch::Tensor lp = terms.logp.detach().to(torch::kCPU).contiguous();
    target_logp.assign(lp.data_ptr<float>(), lp.data_ptr<float>() + samples);
  }
  learning_targets targets = compute_targets(cfg, r, now.values, now.next_values, target_logp);
  const a3c_loss_terms loss = a3c_loss(
      terms.logp, terms.entropy, now.out.values.slice(0, 0, samples),
      core.on_device(torch::from_blob(targets.advantages.data(), {samples}, torch::kFloat32)),
      core.on_device(torch::from_blob(targets.returns.data(), {samples}, torch::kFloat32)),
      cfg.value_coef, cfg.entropy_coef);

  const step_outcome step = core.step(core.with_bounds_penalty(loss.total, now.out.policy.slice(0, 0, samples)));
  train_result result = a3c_train_result(step, samples,
                                         {loss.total.item<double>(), loss.policy.item<double>(),
                                          loss.value.item<double>(), loss.entropy.item<double>()});
  measure_lag(r, now.version, result);
  return result;
}

}  // namespace troupe::algo
