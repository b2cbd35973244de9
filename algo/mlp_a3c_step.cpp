#include "algo/mlp_a3c_step.hpp"

#include <algorithm>
#include <cstring>

#include "algo/by_hand_network.hpp"
#include "algo/targets.hpp"
#include "algo/update_rules.hpp"

namespace troupe::algo {

std::shared_ptr<mlp_a3c_step> mlp_a3c_step::for_model(model::shared_model& model) {
  const std::optional<by_hand_network> net = by_hand_network_of(model);
  return net ? std::make_shared<mlp_a3c_step>(net->layout, net->gaussian) : nullptr;
}

mlp_a3c_step::mlp_a3c_step(model::mlp_layout layout, bool gaussian)
    : pass_(std::move(layout)), gaussian_(gaussian),
      gradient_(torch::zeros({pass_.layout().parameter_count}, torch::kFloat32)) {}

train_result mlp_a3c_step::run(learner_core& core, const rollout& r) {
  const algo_config& cfg = core.config.algo;
  const model::mlp_layout& layout = pass_.layout();
  const int k = r.n_envs;
  const std::int64_t samples = r.samples();
  const std::size_t obs = std::size_t(layout.obs_size);
  const std::size_t width = std::size_t(layout.policy_head.out);
  // Every sample's row, the rows after the last step, then the states an
  // episode was truncated in (learner_core::run's order).
  rows_.assign(r.observations.begin(), r.observations.begin() + std::ptrdiff_t((samples + k) * std::int64_t(obs)));
  rows_.insert(rows_.end(), r.truncation_observations.begin(), r.truncation_observations.end());
  const int n_rows = int(rows_.size() / obs);
  model::shared_model& m = *core.model;
  float* gradient = gradient_.data_ptr<float>();
  std::uint64_t version = 0;
  // The passes read the parameters inside their section (one version); this
  // learner is their only writer, so they are the version the update then
  // applies to.
  m.params.run_shared([&] {
    version = m.version;
    const float* params = m.flat.data_ptr<float>();
    pass_.forward(params, layout.normalize ? m.net->obs_mean.data_ptr<float>() : nullptr,
                  layout.normalize ? m.net->obs_scale.data_ptr<float>() : nullptr, rows_.data(), n_rows);
    // Bootstrap values of each sample's successor state, before any reset.
    const float* v = pass_.values();
    values_.assign(v, v + samples);
    next_values_.resize(std::size_t(samples));
    std::int64_t next_cut = samples + k;
    for (std::int64_t i = 0; i < samples; ++i)
      next_values_[std::size_t(i)] = r.truncated[std::size_t(i)] ? v[next_cut++] : v[i + k];
    a3c_batch_view view;
    view.n = int(samples);
    view.gaussian = gaussian_;
    view.width = int(width);
    view.policy = pass_.policy();
    view.log_std = gaussian_ ? params + layout.log_std : nullptr;
    view.values = v;
    view.actions = r.actions.data();
    view.legal = r.mask_size ? r.action_masks.data() : nullptr;
    if (cfg.correction == correction_kind::vtrace) a3c_action_logp(view, loss_);
    const learning_targets targets = compute_targets(
        cfg, r, values_, next_values_, cfg.correction == correction_kind::vtrace ? loss_.logp : std::vector<float>{});
    view.advantages = targets.advantages.data();
    view.returns = targets.returns.data();
    a3c_loss_and_gradient(view, cfg.value_coef, cfg.entropy_coef, loss_);
    // The rows after the samples feed the targets only: no gradient.
    d_policy_.assign(std::size_t(n_rows) * width, 0.0f);
    d_values_.assign(std::size_t(n_rows), 0.0f);
    std::copy(loss_.d_policy.begin(), loss_.d_policy.end(), d_policy_.begin());
    std::copy(loss_.d_values.begin(), loss_.d_values.end(), d_values_.begin());
    pass_.backward(params, d_policy_.data(), d_values_.data(), gradient);
    for (int d = 0; gaussian_ && d < layout.log_std_size; ++d)
      gradient[layout.log_std + d] = loss_.d_log_std[std::size_t(d)];
  });
  const step_outcome step = core.apply(gradient_, loss_.total, /*step_by_hand=*/true);
  train_result result =
      a3c_train_result(step, samples, {loss_.total, loss_.policy, loss_.value, loss_.entropy});
  measure_lag(r, version, result);
  return result;
}

}  // namespace troupe::algo
