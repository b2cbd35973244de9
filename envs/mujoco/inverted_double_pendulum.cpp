// InvertedDoublePendulum-v4: two poles on a cart. Each step is worth 10
// less a penalty on the tip's distance from upright and on the hinges'
// speeds; a tip at height 1 or below ends the episode. v4 takes no keyword
// arguments.
#include <algorithm>
#include <cmath>

#include "envs/mujoco/mujoco_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

class inverted_double_pendulum final : public mujoco_task {
 public:
  inverted_double_pendulum() : inverted_double_pendulum(fixed_model("inverted_double_pendulum.xml")) {}

 private:
  explicit inverted_double_pendulum(std::shared_ptr<const mjModel> model)
      : mujoco_task("InvertedDoublePendulum-v4", model, 5, 1 + 2 * (model->nq - 1) + 2 * model->nv, 1000,
                    projection{false, false, 100, 0.6, 500, 300}) {}

  void reset_model(std::mt19937_64& rng) override {
    const auto qpos = init_qpos_plus_uniform(rng, 0.1);
    set_state(qpos, init_qvel_plus_normal(rng, 0.1));
  }

  step_result advance(const double* action) override {
    simulate(action);
    // The first site: the tip of the second pole.
    const double x = d_->site_xpos[0], y = d_->site_xpos[2];
    const double dist_penalty = 0.01 * x * x + (y - 2) * (y - 2);
    const double v1 = d_->qvel[1], v2 = d_->qvel[2];
    const double vel_penalty = 1e-3 * v1 * v1 + 5e-3 * v2 * v2;
    const double alive_bonus = 10;
    return {alive_bonus - dist_penalty - vel_penalty, y <= 1, false};
  }

  void observe(double* out) const override {
    *out++ = d_->qpos[0];
    for (int i = 1; i < m_->nq; ++i) *out++ = std::sin(d_->qpos[i]);
    for (int i = 1; i < m_->nq; ++i) *out++ = std::cos(d_->qpos[i]);
    for (int i = 0; i < m_->nv; ++i) *out++ = std::clamp(d_->qvel[i], -10.0, 10.0);
    for (int i = 0; i < m_->nv; ++i) *out++ = std::clamp(d_->qfrc_constraint[i], -10.0, 10.0);
  }
};

}  // namespace

task_info inverted_double_pendulum_task() {
  return {"InvertedDoublePendulum-v4", {}, [](const env_config& c) {
            task_options("InvertedDoublePendulum-v4", {}, c.mujoco);  // refuses any argument
            return std::unique_ptr<env>(new inverted_double_pendulum());
          }};
}

}  // namespace troupe::envs::mujoco
