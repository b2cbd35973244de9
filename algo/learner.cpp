#include "algo/learner.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algo/learner_core.hpp"
#include "algo/optimizer.hpp"
#include "algo/recurrent_unroll.hpp"
#include "algo/rollout_batch.hpp"
#include "model/compute_runtime.hpp"

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
  if (r.state_size != spec.state_size()) fail("recurrent state size does not match the model");
  if (const std::string error = rollout_shape_error(r); !error.empty()) fail(error);
  for (float a : r.actions)
    if (spec.continuous ? !std::isfinite(a) : !(a >= 0 && a < spec.action_size && a == int(a)))
      fail("action out of range");
  for (float o : r.observations)
    if (!std::isfinite(o)) fail("observation is not finite");
}

}  // namespace

// --- what the updates share -------------------------------------------------

torch::Tensor learner::core::on_device(const torch::Tensor& t) const {
  return model->device.is_cpu() ? t : t.to(model->device);
}

torch::Tensor learner::core::rows(const std::vector<float>& data, std::int64_t count) const {
  return on_device(torch::from_blob(const_cast<float*>(data.data()), {count, model->spec.obs_size},
                                    torch::kFloat32));
}

rollout_outputs learner::core::run(const rollout& r) {
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

torch::Tensor learner::core::taken_actions(const rollout& r) const {
  if (model->spec.continuous)
    return on_device(torch::from_blob(const_cast<float*>(r.actions.data()),
                                      {r.samples(), r.action_size}, torch::kFloat32)
                         .clone());
  std::vector<std::int64_t> index(r.actions.begin(), r.actions.end());
  return on_device(torch::tensor(index, torch::kInt64));
}

policy_terms learner::core::terms(const torch::Tensor& policy, const torch::Tensor& log_std,
                                  const torch::Tensor& actions) const {
  return model->spec.continuous ? gaussian_terms(policy, log_std, actions)
                                : categorical_terms(policy, actions);
}

step_outcome learner::core::step(const torch::Tensor& loss) {
  model::shared_model& m = *model;
  // Gradients go to a tensor of our own, not the parameters' .grad fields:
  // only apply_gradients touches the shared parameters.
  const torch::Tensor gradient = model::flat_gradient(m, loss);
  const double grad_norm = gradient.norm().item<double>();
  const double max_norm = config.algo.max_grad_norm;
  if (max_norm > 0 && grad_norm > max_norm) gradient.mul_(max_norm / (grad_norm + 1e-6));
  step_outcome outcome;
  // A non-finite loss or gradient never reaches the parameters.
  outcome.finite = std::isfinite(loss.item<double>()) && std::isfinite(grad_norm);
  if (outcome.finite) {
    const auto version = model::apply_gradients(m, *optimizer, gradient);
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

// --- the learner --------------------------------------------------------------

learner::learner(std::shared_ptr<model::shared_model> m, const learner_config& config)
    : core_(new core{std::move(m), config, nullptr, std::mt19937_64(config.seed), std::nullopt, 0}) {
  core_->optimizer = make_optimizer(config.algo, {core_->model->flat});
  if (config.normalize.reward)
    core_->rewards.emplace(config.algo.gamma, config.normalize.clip_reward, config.normalize.epsilon);
}

learner::~learner() = default;

int learner::batch_rollouts() const { return core_->config.algo.batch_rollouts; }

void learner::check(const rollout& r) const { check_shapes(r, core_->model->spec); }

train_result learner::train(std::vector<rollout> batch, std::vector<float>* delta) {
  core& c = *core_;
  model::use_compute_threads_here();
  if (batch.empty()) throw std::invalid_argument("an empty batch");
  for (const rollout& r : batch) check(r);
  // Rewards are normalised rollout by rollout, in arrival order: each
  // environment's discounted return runs on from its agent's last rollout.
  if (c.rewards)
    for (rollout& r : batch) c.rewards->scale(r, c.model->return_moments);
  train_result result;
  for (const rollout& r : batch) result.rollouts.push_back({r.agent_id, r.sequence});
  const rollout merged = batch.size() == 1 ? std::move(batch.front()) : merge_rollouts(batch);

  // The learning rate, annealed by the env steps trained before this batch.
  const algo_config& a = c.config.algo;
  double lr = a.lr;
  if (a.lr_schedule == lr_schedule_kind::linear && c.config.schedule_env_steps > 0)
    lr *= std::max(0.0, 1.0 - double(c.samples_seen) / double(c.config.schedule_env_steps));
  for (auto& group : c.optimizer->param_groups()) group.options().set_lr(lr);
  c.samples_seen += merged.samples();

  std::vector<float> before;
  if (delta) before = model::flat_parameters(*c.model);
  train_result trained = a.kind == algo_kind::ppo ? ppo_update(c, merged) : a3c_update(c, merged);
  trained.rollouts = std::move(result.rollouts);
  trained.samples = merged.samples();
  trained.lr = static_cast<float>(lr);
  if (delta && trained.applied) {
    const std::vector<float> after = model::flat_parameters(*c.model);
    delta->resize(after.size());
    for (size_t i = 0; i < after.size(); ++i) (*delta)[i] = after[i] - before[i];
  }
  // The statistics the network normalises observations with take in what
  // the batch acted on, after its updates: the first update of a batch sees
  // the statistics its actions were sampled with.
  model::fold_observations(*c.model, merged.observations.data(), merged.samples());
  return trained;
}

std::optional<std::uint64_t> learner::apply_peer_update(const std::vector<float>& delta) {
  return model::apply_delta(*core_->model, delta);
}

std::uint64_t learner::version() { return model::current_version(*core_->model); }

std::uint64_t learner::save_checkpoint(const std::string& path, const model::checkpoint_meta& meta) {
  return model::save_checkpoint(path, *core_->model, core_->optimizer.get(), meta);
}

model::checkpoint_meta learner::restore(const std::string& path) {
  const model::checkpoint_meta meta = model::load_checkpoint(path, *core_->model, core_->optimizer.get());
  core_->samples_seen = meta.env_steps;
  return meta;
}

}  // namespace troupe::algo
