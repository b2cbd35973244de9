#include "envs/mujoco/forward_task.hpp"

#include <algorithm>

namespace troupe::envs::mujoco {

namespace {
int hidden(const forward_shape& shape, const task_options& o) {
  return o.flag("exclude_current_positions_from_observation") ? shape.hidden_positions : 0;
}
}  // namespace

forward_task::forward_task(const forward_shape& shape, const task_options& o,
                           std::shared_ptr<const mjModel> model, int extra_observations)
    : mujoco_task(shape.id, model, shape.frame_skip, model->nq - hidden(shape, o) + model->nv + extra_observations,
                  1000, shape.view),
      shape_(shape),
      forward_weight_(shape.has_forward_weight ? o.number("forward_reward_weight") : 1.0),
      ctrl_weight_(o.number("ctrl_cost_weight")),
      noise_(o.number("reset_noise_scale")),
      first_position_(hidden(shape, o)) {
  if (shape.has_health) {
    healthy_reward_ = o.number("healthy_reward");
    terminate_when_unhealthy_ = o.flag("terminate_when_unhealthy");
  }
}

void forward_task::reset_model(std::mt19937_64& rng) {
  const auto qpos = init_qpos_plus_uniform(rng, noise_);  // drawn first, as v4 does
  set_state(qpos, shape_.normal_velocity_noise ? init_qvel_plus_normal(rng, noise_)
                                               : init_qvel_plus_uniform(rng, noise_));
}

step_result forward_task::advance(const double* action) {
  const double before = x_position();
  simulate(action);
  const double x_velocity = (x_position() - before) / dt();
  // Summed as v4 sums them: rewards, then costs, then the difference.
  double rewards = forward_weight_ * x_velocity;
  bool terminated = false;
  if (shape_.has_health) {
    const bool is_healthy = healthy();
    // v4 pays the healthy reward on every step while an unhealthy state
    // ends the episode, the ending step included.
    rewards += (is_healthy || terminate_when_unhealthy_) ? healthy_reward_ : 0.0;
    terminated = terminate_when_unhealthy_ && !is_healthy;
  }
  const double costs = ctrl_weight_ * squared_norm(action) + extra_cost();
  return {rewards - costs, terminated, false};
}

void forward_task::observe(double* out) const {
  for (int i = first_position_; i < m_->nq; ++i) *out++ = d_->qpos[i];
  for (int i = 0; i < m_->nv; ++i) *out++ = shape_.clip_velocities ? std::clamp(d_->qvel[i], -10.0, 10.0) : d_->qvel[i];
  observe_more(out);
}

}  // namespace troupe::envs::mujoco
