// Ant-v4: a four-legged ant. The reward is the torso's forward speed plus
// a bonus for being healthy, less a cost on the actions (and, with
// use_contact_forces, on the clipped external contact forces, which then
// join the observation); a torso out of its height range, or any state
// that is not finite, ends the episode.
#include <algorithm>
#include <cmath>

#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape ant_shape{"Ant-v4", 5, 2, false, true, true, false,
    projection{true, true, 80, 0}};

// v4 observes cfrc_ext of every body, the world's included.
int contact_values(const task_options& o, const mjModel& m) { return o.flag("use_contact_forces") ? 6 * m.nbody : 0; }

class ant final : public forward_task {
 public:
  explicit ant(const task_options& o) : ant(o, task_model(o)) {}

 private:
  ant(const task_options& o, std::shared_ptr<const mjModel> model)
      : forward_task(ant_shape, o, model, contact_values(o, *model)),
        use_contact_forces_(o.flag("use_contact_forces")),
        contact_weight_(o.number("contact_cost_weight")),
        z_range_(o.range("healthy_z_range")),
        contact_range_(o.range("contact_force_range")),
        torso_(named(*model, mjOBJ_BODY, "torso", model_key(o))) {
    reads_constraint_forces_ = use_contact_forces_;
  }

  // The torso's frame (v4's get_body_com reads xpos).
  double x_position() const override { return d_->xpos[3 * torso_]; }

  // Finite everywhere, and the torso's height (qpos[2]) within the range,
  // bounds included, as v4 compares.
  bool healthy() const override {
    for (int i = 0; i < m_->nq; ++i)
      if (!std::isfinite(d_->qpos[i])) return false;
    for (int i = 0; i < m_->nv; ++i)
      if (!std::isfinite(d_->qvel[i])) return false;
    return z_range_.first <= d_->qpos[2] && d_->qpos[2] <= z_range_.second;
  }

  double contact_force(int i) const { return std::clamp(d_->cfrc_ext[i], contact_range_.first, contact_range_.second); }

  double extra_cost() const override {
    if (!use_contact_forces_) return 0.0;
    double sum = 0;
    for (int i = 0; i < 6 * m_->nbody; ++i) sum += contact_force(i) * contact_force(i);
    return contact_weight_ * sum;
  }

  void observe_more(double* out) const override {
    if (use_contact_forces_)
      for (int i = 0; i < 6 * m_->nbody; ++i) *out++ = contact_force(i);
  }

  bool use_contact_forces_;
  double contact_weight_;
  std::pair<double, double> z_range_, contact_range_;
  int torso_;
};

std::vector<kwarg> ant_kwargs() {
  return {model_file("ant.xml"),
          number("ctrl_cost_weight", 0.5, "weight of the sum of squared actions subtracted from the reward"),
          flag("use_contact_forces", false, "observe the clipped external contact forces of every body and subtract their cost"),
          number("contact_cost_weight", 5e-4, "with use_contact_forces: weight of the sum of squared clipped contact forces"),
          number("healthy_reward", 1.0, "reward of every step the ant is healthy (of every step while terminate_when_unhealthy)"),
          flag("terminate_when_unhealthy", true, "an unhealthy state ends the episode"),
          range("healthy_z_range", 0.2, 1.0, "healthy: the torso's height inside, bounds included"),
          range("contact_force_range", -1.0, 1.0, "contact forces are clipped to this"),
          number("reset_noise_scale", 0.1, "positions start uniform in +-this around the model's, velocities this x a standard normal"),
          flag("exclude_current_positions_from_observation", true, "leave the x and y positions out of the observation")};
}

}  // namespace

task_info ant_task() {
  return {ant_shape.id, ant_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new ant(task_options(ant_shape.id, ant_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
