// Humanoid-v4: a three-dimensional humanoid. The reward is the forward
// speed of its centre of mass plus a bonus for being healthy, less a cost
// on the controls; a torso out of its height range ends the episode. It
// observes, beside positions and velocities, every body's inertia and
// velocity about the centre of mass, the actuator forces and the external
// contact forces (v4: the world body's rows included).
#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape humanoid_shape{"Humanoid-v4", 5, 2, false, false, true, true,
    projection{false, true, 120, 0.9}};

// cinert, cvel, qfrc_actuator and cfrc_ext.
int body_values(const mjModel& m) { return 10 * m.nbody + 6 * m.nbody + m.nv + 6 * m.nbody; }

class humanoid final : public forward_task {
 public:
  explicit humanoid(const task_options& o) : humanoid(o, fixed_model("humanoid.xml")) {}

 private:
  humanoid(const task_options& o, std::shared_ptr<const mjModel> model)
      : forward_task(humanoid_shape, o, model, body_values(*model)), z_range_(o.range("healthy_z_range")) {
    reads_constraint_forces_ = true;
  }

  // The mass-weighted mean of the bodies' centres of mass (xipos), x only.
  // (v4's control cost reads data.ctrl, which holds the action as given.)
  double x_position() const override {
    double mass = 0, sum = 0;
    for (int b = 0; b < m_->nbody; ++b) {
      mass += m_->body_mass[b];
      sum += m_->body_mass[b] * d_->xipos[3 * b];
    }
    return sum / mass;
  }

  bool healthy() const override { return z_range_.first < d_->qpos[2] && d_->qpos[2] < z_range_.second; }

  void observe_more(double* out) const override {
    for (int i = 0; i < 10 * m_->nbody; ++i) *out++ = d_->cinert[i];
    for (int i = 0; i < 6 * m_->nbody; ++i) *out++ = d_->cvel[i];
    for (int i = 0; i < m_->nv; ++i) *out++ = d_->qfrc_actuator[i];
    for (int i = 0; i < 6 * m_->nbody; ++i) *out++ = d_->cfrc_ext[i];
  }

  std::pair<double, double> z_range_;
};

std::vector<kwarg> humanoid_kwargs() {
  return {number("forward_reward_weight", 1.25, "weight of the centre of mass's forward speed in the reward"),
          number("ctrl_cost_weight", 0.1, "weight of the sum of squared controls subtracted from the reward"),
          number("healthy_reward", 5.0, "reward of every step the humanoid is healthy (of every step while terminate_when_unhealthy)"),
          flag("terminate_when_unhealthy", true, "an unhealthy state ends the episode"),
          range("healthy_z_range", 1.0, 2.0, "healthy: the torso's height strictly inside"),
          number("reset_noise_scale", 1e-2, "positions and velocities start uniform in +-this around the model's"),
          flag("exclude_current_positions_from_observation", true, "leave the x and y positions out of the observation")};
}

}  // namespace

task_info humanoid_task() {
  return {humanoid_shape.id, humanoid_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new humanoid(task_options(humanoid_shape.id, humanoid_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
