#include "algo/learner.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algo/act_from_policy.hpp"
#include "algo/learner_core.hpp"
#include "algo/mlp_ppo_step.hpp"
#include "algo/optimizer.hpp"
#include "algo/rollout.hpp"
#include "algo/rollout_batch.hpp"
#include "algo/update_rules.hpp"
#include "model/compute_runtime.hpp"

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
  if (config.normalize.reward)
    core_->rewards.emplace(config.algo.gamma, config.normalize.clip_reward, config.normalize.epsilon);
}

learner::~learner() = default;

int learner::batch_rollouts() const { return core_->config.algo.batch_rollouts; }

bool learner::trains_by_hand() const { return core_->by_hand != nullptr; }

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
