// Reacher-v4: a two-link arm reaching for a target, seen from above. The
// reward, taken from the state before the step, is minus the fingertip's
// distance to the target less the squared actions; episodes last 50 steps.
// v4 takes no keyword arguments.
#include <cmath>

#include "envs/mujoco/mujoco_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

class reacher final : public mujoco_task {
 public:
  reacher() : reacher(fixed_model("reacher.xml")) {}

 private:
  explicit reacher(std::shared_ptr<const mjModel> model)
      : mujoco_task("Reacher-v4", model, 2, 2 + 2 + (model->nq - 2) + 2 + 3, 50,
                    projection{true, false, 600, 0, 300, 300}),
        fingertip_(named(*model, mjOBJ_BODY, "fingertip")),
        target_(named(*model, mjOBJ_BODY, "target")) {}

  double tip_to_target(int axis) const { return d_->xpos[3 * fingertip_ + axis] - d_->xpos[3 * target_ + axis]; }

  void reset_model(std::mt19937_64& rng) override {
    std::vector<double> qpos = init_qpos_plus_uniform(rng, 0.1);
    std::uniform_real_distribution<double> goal_coordinate(-0.2, 0.2);
    double gx, gy;
    do {
      gx = goal_coordinate(rng);
      gy = goal_coordinate(rng);
    } while (!(std::sqrt(gx * gx + gy * gy) < 0.2));
    qpos[size_t(m_->nq - 2)] = gx;
    qpos[size_t(m_->nq - 1)] = gy;
    std::vector<double> qvel = init_qvel_plus_uniform(rng, 0.005);
    qvel[size_t(m_->nv - 2)] = qvel[size_t(m_->nv - 1)] = 0;
    set_state(qpos, qvel);
  }

  step_result advance(const double* action) override {
    const double dx = tip_to_target(0), dy = tip_to_target(1), dz = tip_to_target(2);
    const double reward_dist = -std::sqrt(dx * dx + dy * dy + dz * dz);
    const double reward_ctrl = -squared_norm(action);
    simulate(action);
    return {reward_dist + reward_ctrl, false, false};
  }

  void observe(double* out) const override {
    for (int i = 0; i < 2; ++i) *out++ = std::cos(d_->qpos[i]);
    for (int i = 0; i < 2; ++i) *out++ = std::sin(d_->qpos[i]);
    for (int i = 2; i < m_->nq; ++i) *out++ = d_->qpos[i];
    for (int i = 0; i < 2; ++i) *out++ = d_->qvel[i];
    for (int axis = 0; axis < 3; ++axis) *out++ = tip_to_target(axis);
  }

  int fingertip_, target_;
};

}  // namespace

task_info reacher_task() {
  return {"Reacher-v4", {}, [](const env_config& c) {
            task_options("Reacher-v4", {}, c.mujoco);  // refuses any argument
            return std::unique_ptr<env>(new reacher());
          }};
}

}  // namespace troupe::envs::mujoco
