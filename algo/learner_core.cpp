#include "algo/learner_core.hpp"

#include <algorithm>
#include <cmath>

#include "algo/recurrent_unroll.hpp"

namespace troupe::algo {

torch::Tensor learner_core::on_device(const torch::Tensor& t) const {
  return model->device.is_cpu() ? t : t.to(model->device);
}

torch::Tensor learner_core::rows(const std::vector<float>& data, std::int64_t count) const {
  return on_device(torch::from_blob(const_cast<float*>(data.data()), {count, model->spec.obs_size},
                                    torch::kFloat32));
}

rollout_outputs learner_core::run(const rollout& r) {
  model::shared_model& m = *model;
  const int k = r.n_envs;
  const std::int64_t samples = r.samples();
  const std::int64_t truncations =
      static_cast<std::int64_t>(r.truncation_observations.size()) / r.obs_size;
  const torch::Tensor all_rows = rows(r.observations, samples + k);
  torch::Tensor cut;
  if (truncations > 0) cut = rows(r.truncation_observations, truncations);
  rollout_outputs result;
  // The forward pass reads the parameters inside their section, so it sees
  // one version; this learner is their only writer, so they stay at that
  // version until its own next update.
  result.out = m.params.run_shared([&] {
    result.version = m.version;
    if (m.spec.state_size() > 0)
      return unroll(*m.net, r, all_rows, cut, [this](const torch::Tensor& t) { return on_device(t); });
    return m.net->forward(cut.defined() ? torch::cat({all_rows, cut}) : all_rows);
  });
  // Bootstrap values of each sample's successor state, before any reset.
  const torch::Tensor v = result.out.values.detach().to(torch::kCPU).contiguous();
  const float* values = v.data_ptr<float>();
  result.values.assign(values, values + samples);
  result.next_values.resize(size_t(samples));
  std::int64_t next_cut = samples + k;
  for (std::int64_t i = 0; i < samples; ++i)
    result.next_values[size_t(i)] = r.truncated[size_t(i)] ? values[next_cut++] : values[i + k];
  return result;
}

torch::Tensor learner_core::taken_actions(const rollout& r) const {
  // A Box or hybrid action's row stays floats (terms splits a hybrid's indices off).
  if (model->spec.gaussian_dims() > 0)
    return on_device(torch::from_blob(const_cast<float*>(r.actions.data()),
                                      {r.samples(), r.action_size}, torch::kFloat32)
                         .clone());
  std::vector<std::int64_t> index(r.actions.begin(), r.actions.end());
  const torch::Tensor taken = torch::tensor(index, torch::kInt64);
  return on_device(model->spec.action_heads.empty() ? taken : taken.view({r.samples(), r.action_size}));
}

torch::Tensor learner_core::legal_actions(const rollout& r) const {
  if (r.mask_size == 0) return {};
  return on_device(torch::from_blob(const_cast<std::uint8_t*>(r.action_masks.data()),
                                    {r.samples(), r.mask_size}, torch::kUInt8)
                       .to(torch::kBool));
}

policy_terms learner_core::terms(const torch::Tensor& policy, const torch::Tensor& log_std,
                                  const torch::Tensor& actions, const torch::Tensor& legal) const {
  const model::net_spec& spec = model->spec;
  if (spec.continuous) return gaussian_terms(policy, log_std, actions);
  if (spec.hybrid()) return hybrid_terms(policy, log_std, actions, spec.action_heads, legal);
  return spec.action_heads.empty() ? categorical_terms(policy, actions, legal)
                                   : multi_categorical_terms(policy, actions, spec.action_heads, legal);
}

void learner_core::prepare_bounds() {
  if (config.action_low.empty()) return;
  const auto bound = [this](const std::vector<double>& values) {
    return on_device(torch::tensor(std::vector<float>(values.begin(), values.end()), torch::kFloat32));
  };
  low_bounds = bound(config.action_low);
  high_bounds = bound(config.action_high);
}

torch::Tensor learner_core::with_bounds_penalty(const torch::Tensor& loss, const torch::Tensor& policy) const {
  const model::net_spec& spec = model->spec;
  if (!spec.hybrid() || config.algo.bounds_coef == 0 || !low_bounds.defined()) return loss;
  const torch::Tensor mean = policy.narrow(-1, spec.logit_count(), spec.gaussian_size);
  // An infinite bound gives relu(-inf) = 0: no penalty on that side.
  const torch::Tensor excess = torch::relu(mean - high_bounds) + torch::relu(low_bounds - mean);
  return loss + config.algo.bounds_coef * excess.pow(2).sum(-1).mean();
}

step_outcome learner_core::step(const torch::Tensor& loss) {
  // Gradients go to a tensor of our own, not the parameters' .grad fields:
  // only apply_gradients touches the shared parameters.
  const torch::Tensor gradient = model::flat_gradient(*model, loss);
  return apply(gradient, loss.item<double>());
}

step_outcome learner_core::apply(const torch::Tensor& gradient, double loss, bool step_by_hand) {
  model::shared_model& m = *model;
  const double grad_norm = gradient.norm().item<double>();
  const double max_norm = config.algo.max_grad_norm;
  if (max_norm > 0 && grad_norm > max_norm) gradient.mul_(max_norm / (grad_norm + 1e-6));
  step_outcome outcome;
  // A non-finite loss or gradient never reaches the parameters.
  outcome.finite = std::isfinite(loss) && std::isfinite(grad_norm);
  if (outcome.finite) {
    const auto version = model::apply_gradients(m, *optimizer, gradient, nullptr, step_by_hand);
    outcome.applied = version.has_value();
    outcome.frozen = !version.has_value();
    outcome.version = version ? *version : model::current_version(m);
  } else {
    outcome.version = model::current_version(m);
  }
  return outcome;
}

void measure_lag(const rollout& r, std::uint64_t version, train_result& result) {
  for (std::uint64_t acted : r.behaviour_version) {
    const std::uint64_t lag = version >= acted ? version - acted : 0;
    result.lag_sum += lag;
    result.lag_max = std::max(result.lag_max, lag);
  }
}

}  // namespace troupe::algo
