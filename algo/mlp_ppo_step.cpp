#include "algo/mlp_ppo_step.hpp"

#include <cstring>

#include "algo/by_hand_network.hpp"

namespace troupe::algo {

std::shared_ptr<mlp_ppo_step> mlp_ppo_step::for_model(model::shared_model& model) {
  const std::optional<by_hand_network> net = by_hand_network_of(model);
  return net ? std::make_shared<mlp_ppo_step>(net->layout, net->gaussian) : nullptr;
}

mlp_ppo_step::mlp_ppo_step(model::mlp_layout layout, bool gaussian)
    : pass_(std::move(layout)), gaussian_(gaussian),
      gradient_(torch::zeros({pass_.layout().parameter_count}, torch::kFloat32)) {}

const ppo_loss_by_hand& mlp_ppo_step::run(learner_core& core, const rollout& batch,
                                          const std::vector<std::int64_t>& samples,
                                          const ppo_sample_targets& targets, const ppo_loss_settings& settings,
                                          step_outcome& outcome) {
  const model::mlp_layout& layout = pass_.layout();
  const int n = int(samples.size());
  const std::size_t obs = std::size_t(layout.obs_size);
  const std::size_t width = std::size_t(layout.policy_head.out);
  const std::size_t action_width = gaussian_ ? width : 1;
  const std::size_t mask = std::size_t(batch.mask_size);
  rows_.resize(std::size_t(n) * obs);
  actions_.resize(std::size_t(n) * action_width);
  legal_.resize(std::size_t(n) * mask);
  for (std::vector<float>* v : {&behaviour_logp_, &old_values_, &advantages_, &returns_}) v->resize(std::size_t(n));
  // The minibatch's samples side by side, in its order.
  for (int k = 0; k < n; ++k) {
    const std::size_t s = std::size_t(samples[std::size_t(k)]);
    std::memcpy(rows_.data() + k * obs, batch.observations.data() + s * obs, obs * sizeof(float));
    std::memcpy(actions_.data() + k * action_width, batch.actions.data() + s * action_width,
                action_width * sizeof(float));
    if (mask) std::memcpy(legal_.data() + k * mask, batch.action_masks.data() + s * mask, mask);
    behaviour_logp_[std::size_t(k)] = targets.behaviour_logp[s];
    old_values_[std::size_t(k)] = targets.old_values[s];
    advantages_[std::size_t(k)] = targets.advantages[s];
    returns_[std::size_t(k)] = targets.returns[s];
  }
  model::shared_model& m = *core.model;
  float* gradient = gradient_.data_ptr<float>();
  // Both passes read the parameters inside their section (one version);
  // this learner is their only writer, so they are the version the update
  // then applies to.
  m.params.run_shared([&] {
    const float* params = m.flat.data_ptr<float>();
    pass_.forward(params, layout.normalize ? m.net->obs_mean.data_ptr<float>() : nullptr,
                  layout.normalize ? m.net->obs_scale.data_ptr<float>() : nullptr, rows_.data(), n);
    ppo_minibatch_view view;
    view.n = n;
    view.gaussian = gaussian_;
    view.width = int(width);
    view.policy = pass_.policy();
    view.log_std = gaussian_ ? params + layout.log_std : nullptr;
    view.values = pass_.values();
    view.actions = actions_.data();
    view.legal = mask ? legal_.data() : nullptr;
    view.behaviour_logp = behaviour_logp_.data();
    view.old_values = old_values_.data();
    view.advantages = advantages_.data();
    view.returns = returns_.data();
    ppo_loss_and_gradient(view, settings, loss_);
    pass_.backward(params, loss_.d_policy.data(), loss_.d_values.data(), gradient);
    for (int d = 0; gaussian_ && d < layout.log_std_size; ++d)
      gradient[layout.log_std + d] = loss_.d_log_std[std::size_t(d)];
  });
  outcome = core.apply(gradient_, loss_.total, /*step_by_hand=*/true);
  return loss_;
}

}  // namespace troupe::algo
