#include "algo/a3c_learner.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algo/recurrent_unroll.hpp"
#include "algo/targets.hpp"
#include "algo/a3c_loss.hpp"
#include "model/compute_runtime.hpp"
#include "algo/policy_distribution.hpp"
#include "algo/optimizer.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::algo {

namespace {

void check_shapes(const rollout& r, const model::net_spec& spec) {
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("rollout " + std::to_string(r.sequence) + " of agent " +
                                std::to_string(r.agent_id) + ": " + what);
  };
  if (r.obs_size != spec.obs_size) fail("observation size does not match the model");
  if (r.action_size != (spec.continuous ? spec.action_size : 1))
    fail("action size does not match the model");
  if (const std::string error = rollout_shape_error(r); !error.empty()) fail(error);
  for (float a : r.actions)
    if (spec.continuous ? !std::isfinite(a) : !(a >= 0 && a < spec.action_size && a == int(a)))
      fail("action out of range");
  for (float o : r.observations)
    if (!std::isfinite(o)) fail("observation is not finite");
}

}  // namespace

struct a3c_learner::impl {
  std::shared_ptr<model::shared_model> model;
  algo_config config;
  std::unique_ptr<torch::optim::Optimizer> optimizer;

  // Gradients of `loss`, clipped, applied as one atomic update (or skipped
  // when not finite). Fills the result's loss terms, applied and version.
  train_result update(const a3c_loss_terms& loss, std::vector<float>* delta);
};

a3c_learner::a3c_learner(std::shared_ptr<model::shared_model> m, const algo_config& config)
    : impl_(new impl{std::move(m), config, nullptr}) {
  impl_->optimizer = make_optimizer(config, impl_->model->net->parameters());
}

a3c_learner::~a3c_learner() = default;

std::uint64_t a3c_learner::save_checkpoint(const std::string& path,
                                           const model::checkpoint_meta& meta) {
  return model::save_checkpoint(path, *impl_->model, impl_->optimizer.get(), meta);
}

model::checkpoint_meta a3c_learner::restore(const std::string& path) {
  return model::load_checkpoint(path, *impl_->model, impl_->optimizer.get());
}

std::optional<std::uint64_t> a3c_learner::apply_peer_update(const std::vector<float>& delta) {
  return model::apply_delta(*impl_->model, delta);
}

train_result a3c_learner::train(const rollout& r, std::vector<float>* delta) {
  model::shared_model& m = *impl_->model;
  model::use_compute_threads_here();
  // Inputs are built on the host; on another device they move there first.
  auto on_device = [&](const torch::Tensor& t) { return m.device.is_cpu() ? t : t.to(m.device); };
  check_shapes(r, m.spec);
  const int k = r.n_envs, obs = r.obs_size;
  const int64_t samples = r.samples();
  const int64_t truncations = static_cast<int64_t>(r.truncation_observations.size()) / obs;

  // One forward pass over every state the loss or a bootstrap needs: the
  // rollout's n + 1 rows of k observations, then the truncation observations.
  torch::Tensor rows = on_device(torch::from_blob(const_cast<float*>(r.observations.data()),
                                                  {samples + k, obs}, torch::kFloat32));
  torch::Tensor cut;
  if (truncations > 0)
    cut = on_device(torch::from_blob(const_cast<float*>(r.truncation_observations.data()),
                                     {truncations, obs}, torch::kFloat32));
  // The forward pass reads the parameters inside their section, so it sees
  // one version; this learner is their only writer, so they stay at that
  // version until its own update.
  uint64_t computed_with = 0;
  model::actor_critic_output out = m.params.run_shared([&] {
    computed_with = m.version;
    if (m.spec.state_size() > 0) return unroll(*m.net, r, rows, cut, on_device);
    return m.net->forward(cut.defined() ? torch::cat({rows, cut}) : rows);
  });

  // Bootstrap values of each sample's successor state, before any reset.
  const torch::Tensor all_values = out.values.detach().to(torch::kCPU).contiguous();
  const float* v = all_values.data_ptr<float>();
  std::vector<float> next_values(samples), values(v, v + samples);
  int64_t next_cut = samples + k;
  for (int64_t i = 0; i < samples; ++i)
    next_values[i] = r.truncated[i] ? v[next_cut++] : v[i + k];
  const torch::Tensor policy = out.policy.slice(0, 0, samples);
  policy_terms terms;
  if (m.spec.continuous) {
    const torch::Tensor actions = torch::from_blob(const_cast<float*>(r.actions.data()),
                                                   {samples, r.action_size}, torch::kFloat32);
    terms = gaussian_terms(policy, out.log_std, on_device(actions));
  } else {
    std::vector<int64_t> action_index(r.actions.begin(), r.actions.end());
    terms = categorical_terms(policy, on_device(torch::tensor(action_index, torch::kInt64)));
  }
  const algo_config& cfg = impl_->config;
  std::vector<float> target_logp;
  if (cfg.correction == correction_kind::vtrace) {
    const torch::Tensor lp = terms.logp.detach().to(torch::kCPU).contiguous();
    target_logp.assign(lp.data_ptr<float>(), lp.data_ptr<float>() + samples);
  }
  learning_targets targets = compute_targets(cfg, r, values, next_values, target_logp);

  a3c_loss_terms loss = a3c_loss(
      terms.logp, terms.entropy, out.values.slice(0, 0, samples),
      on_device(torch::from_blob(targets.advantages.data(), {samples}, torch::kFloat32)),
      on_device(torch::from_blob(targets.returns.data(), {samples}, torch::kFloat32)),
      cfg.value_coef, cfg.entropy_coef);

  train_result result = impl_->update(loss, delta);
  result.agent_id = r.agent_id;
  result.sequence = r.sequence;
  result.samples = samples;
  for (uint64_t acted : r.behaviour_version) {
    const uint64_t lag = computed_with >= acted ? computed_with - acted : 0;
    result.lag_sum += lag;
    result.lag_max = std::max(result.lag_max, lag);
  }
  return result;
}

train_result a3c_learner::impl::update(const a3c_loss_terms& loss, std::vector<float>* delta) {
  model::shared_model& m = *model;
  // Gradients go to tensors of our own, not the parameters' .grad fields:
  // only apply_gradients touches the shared parameters.
  std::vector<torch::Tensor> parameters = m.net->parameters();
  std::vector<torch::Tensor> grads = torch::autograd::grad(
      {loss.total}, parameters, /*grad_outputs=*/{}, /*retain_graph=*/false,
      /*create_graph=*/false, /*allow_unused=*/true);
  double squared_norm = 0.0;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) grads[i] = torch::zeros_like(parameters[i]);
    squared_norm += grads[i].pow(2).sum().item<double>();
  }
  const double grad_norm = std::sqrt(squared_norm);
  const double max_norm = config.max_grad_norm;
  if (max_norm > 0 && grad_norm > max_norm)
    for (auto& g : grads) g.mul_(max_norm / (grad_norm + 1e-6));

  train_result result;
  result.loss = loss.total.item<float>();
  result.policy_loss = loss.policy.item<float>();
  result.value_loss = loss.value.item<float>();
  result.entropy = loss.entropy.item<float>();
  // A non-finite loss or gradient never reaches the parameters.
  result.applied = std::isfinite(result.loss) && std::isfinite(grad_norm);
  if (result.applied) {
    const auto version = model::apply_gradients(m, *optimizer, grads, delta);
    result.frozen = !version.has_value();
    result.applied = version.has_value();
    result.version = version ? *version : model::current_version(m);
  } else {
    result.version = model::current_version(m);
  }
  return result;
}

}  // namespace troupe::algo
