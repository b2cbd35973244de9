#include "algo/learner.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algo/act_from_policy.hpp"
#include "algo/hyperparameters.hpp"
#include "algo/learner_core.hpp"
#include "algo/mlp_a3c_step.hpp"
#include "algo/mlp_ppo_step.hpp"
#include "algo/optimizer.hpp"
#include "algo/rollout.hpp"
#include "algo/rollout_batch.hpp"
#include "algo/update_rules.hpp"
#include "model/compute_runtime.hpp"
#include "model/host_values.hpp"

namespace troupe::algo {

namespace {

void check_shapes(const rollout& r, const model::net_spec& spec) {
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("rollout " + std::to_string(r.sequence) + " of agent " +
                                std::to_string(r.agent_id) + ": " + what);
  };
  if (r.obs_size != spec.obs_size) fail("observation size does not match the model");
  if (r.action_size != action_width(spec))
    fail("action size does not match the model");
  if (r.state_size != spec.state_size()) fail("recurrent state size does not match the model");
  if (r.mask_size != 0 && (spec.continuous || r.mask_size != spec.logit_count()))
    fail("action mask size does not match the model's actions");
  if (const std::string error = rollout_shape_error(r); !error.empty()) fail(error);
  // A row: each categorical component's index, then any Gaussian values.
  const std::vector<int> heads = spec.continuous ? std::vector<int>{} : spec.heads();
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const float a = r.actions[i];
    const size_t column = i % size_t(r.action_size);
    if (column >= heads.size()) {
      if (!std::isfinite(a)) fail("action is not finite");
    } else if (!(a >= 0 && a < heads[column] && a == int(a))) {
      fail("action out of range");
    }
  }
  if (r.mask_size != 0 && r.action_size > 1)
    if (const std::string problem = rollout_mask_error(r, heads); !problem.empty()) fail(problem);
  for (float o : r.observations)
    if (!std::isfinite(o)) fail("observation is not finite");
}

}  // namespace

learner::learner(std::shared_ptr<model::shared_model> m, const learner_config& config)
    : core_(new learner_core{std::move(m), config, nullptr, std::mt19937_64(config.seed), std::nullopt, 0}) {
  core_->optimizer = make_optimizer(config.algo, {core_->model->flat});
  core_->prepare_bounds();
  if (config.algo.kind == algo_kind::ppo)
    core_->by_hand = mlp_ppo_step::for_model(*core_->model);
  else
    core_->a3c_by_hand = mlp_a3c_step::for_model(*core_->model);
  if (config.normalize.reward)
    core_->rewards.emplace(config.algo.gamma, config.normalize.clip_reward, config.normalize.epsilon);
}

learner::~learner() = default;

int learner::batch_rollouts() const { return core_->config.algo.batch_rollouts; }

bool learner::trains_by_hand() const { return core_->by_hand != nullptr || core_->a3c_by_hand != nullptr; }

void learner::check(const rollout& r) const { check_shapes(r, core_->model->spec); }

train_result learner::train(std::vector<rollout> batch, std::vector<float>* delta) {
  learner_core& c = *core_;
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
    lr = a.lr_final + (a.lr - a.lr_final) *
                          std::max(0.0, 1.0 - double(c.samples_seen) / double(c.config.schedule_env_steps));
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

namespace {

// The optimiser state of the one tensor an optimiser steps (model.flat), or
// null before its first step.
torch::optim::OptimizerParamState* flat_state(torch::optim::Optimizer& o) {
  auto& all = o.state();
  return all.empty() ? nullptr : all.begin()->second.get();
}

// `values` as a tensor laid out as `flat` (on its device); undefined when
// empty (a tensor the optimiser does not keep).
torch::Tensor like_flat(const std::vector<float>& values, const torch::Tensor& flat) {
  if (values.empty()) return {};
  if (std::int64_t(values.size()) != flat.numel())
    throw std::invalid_argument("adopt: an optimiser state of another network");
  return torch::from_blob(const_cast<float*>(values.data()), {flat.numel()}).to(flat.device(), flat.dtype(), false, true);
}

optimizer_state state_of(torch::optim::Optimizer& o) {
  optimizer_state out;
  const auto* s = flat_state(o);
  if (!s) return out;
  if (const auto* a = dynamic_cast<const torch::optim::AdamParamState*>(s)) {
    out = {"adam", a->step(), {model::host_values(a->exp_avg()), model::host_values(a->exp_avg_sq()), model::host_values(a->max_exp_avg_sq())}};
  } else if (const auto* r = dynamic_cast<const torch::optim::RMSpropParamState*>(s)) {
    out = {"rmsprop", r->step(),
           {model::host_values(r->square_avg()), model::host_values(r->momentum_buffer()), model::host_values(r->grad_avg())}};
  } else {
    throw std::logic_error("an optimiser state of a kind make_optimizer does not make");
  }
  return out;
}

// `state` as the optimiser's state of `flat` (null: no step taken yet);
// throws std::invalid_argument for another kind of optimiser or network.
std::unique_ptr<torch::optim::OptimizerParamState> param_state_of(const optimizer_state& state,
                                                                  torch::optim::Optimizer& o,
                                                                  const torch::Tensor& flat) {
  if (state.kind.empty()) return nullptr;
  if (state.tensors.size() != 3) throw std::invalid_argument("adopt: a damaged optimiser state");
  const auto& t = state.tensors;
  if (state.kind == "adam" && dynamic_cast<torch::optim::Adam*>(&o)) {
    auto a = std::make_unique<torch::optim::AdamParamState>();
    a->step(state.step).exp_avg(like_flat(t[0], flat)).exp_avg_sq(like_flat(t[1], flat));
    a->max_exp_avg_sq(like_flat(t[2], flat));
    return a;
  }
  if (state.kind == "rmsprop" && dynamic_cast<torch::optim::RMSprop*>(&o)) {
    auto r = std::make_unique<torch::optim::RMSpropParamState>();
    r->step(state.step).square_avg(like_flat(t[0], flat)).momentum_buffer(like_flat(t[1], flat));
    r->grad_avg(like_flat(t[2], flat));
    return r;
  }
  throw std::invalid_argument("adopt: the state of another optimiser (" + state.kind + ")");
}

}  // namespace

learned_state learner::export_state() {
  learner_core& c = *core_;
  learned_state out;
  c.model->params.run_shared([&] {
    out.parameters = model::read_parameter_state(*c.model);
    out.optimizer = state_of(*c.optimizer);
  });
  return out;
}

std::uint64_t learner::adopt(const learned_state& state) {
  learner_core& c = *core_;
  model::shared_model& m = *c.model;
  // Built outside the section (it checks the kind and sizes); installing it is a swap.
  std::unique_ptr<torch::optim::OptimizerParamState> optimizer = param_state_of(state.optimizer, *c.optimizer, m.flat);
  return m.params.run([&] {
    model::write_parameter_state(m, state.parameters);
    auto& states = c.optimizer->state();
    states.clear();
    if (optimizer) states[c10::guts::to_string(m.flat.unsafeGetTensorImpl())] = std::move(optimizer);
    return ++m.version;
  });
}

std::uint64_t learner::fingerprint(const learned_state& state) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over every byte the state holds
  const auto bytes = [&h](const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  const auto floats = [&](const std::vector<float>& v) {
    const std::uint64_t n = v.size();
    bytes(&n, sizeof n);
    bytes(v.data(), v.size() * sizeof(float));
  };
  const auto moments = [&](const model::running_moments& m) {
    bytes(m.mean.data(), m.mean.size() * sizeof(double));
    bytes(m.var.data(), m.var.size() * sizeof(double));
    bytes(&m.count, sizeof m.count);
  };
  const model::parameter_state& p = state.parameters;
  floats(p.flat);
  for (const auto& b : p.buffers) floats(b);
  moments(p.obs_moments);
  moments(p.return_moments);
  bytes(state.optimizer.kind.data(), state.optimizer.kind.size());
  bytes(&state.optimizer.step, sizeof state.optimizer.step);
  for (const auto& t : state.optimizer.tensors) floats(t);
  return h;
}

void learner::set_hyperparameter(const std::string& key, double value) {
  double* slot = algo::hyperparameter(core_->config.algo, key);
  if (!slot) throw std::invalid_argument(key + " cannot change during a run: " + why_not_changeable(key));
  *slot = value;
  if (key == "algo.gamma" && core_->rewards) core_->rewards->set_gamma(value);
}

double learner::hyperparameter(const std::string& key) const {
  const double* slot = algo::hyperparameter(core_->config.algo, key);
  if (!slot) throw std::invalid_argument(key + " cannot change during a run: " + why_not_changeable(key));
  return *slot;
}

}  // namespace troupe::algo
