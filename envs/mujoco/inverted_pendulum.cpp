// InvertedPendulum-v4: a pole on a cart. Every step is worth 1; a pole
// tilted past 0.2 rad (or a state that is not finite) ends the episode.
// v4 takes no keyword arguments.
#include <cmath>

#include "envs/mujoco/mujoco_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

class inverted_pendulum final : public mujoco_task {
 public:
  inverted_pendulum() : inverted_pendulum(fixed_model("inverted_pendulum.xml")) {}

 private:
  explicit inverted_pendulum(std::shared_ptr<const mjModel> model)
      : mujoco_task("InvertedPendulum-v4", model, 2, model->nq + model->nv, 1000,
                    projection{false, false, 120, 0.3, 500, 300}) {}

  void reset_model(std::mt19937_64& rng) override {
    const auto qpos = init_qpos_plus_uniform(rng, 0.01);
    set_state(qpos, init_qvel_plus_uniform(rng, 0.01));
  }

  step_result advance(const double* action) override {
    simulate(action);
    // The observation is qpos then qvel: v4 tests it, its [1] the pole's angle.
    bool finite = true;
    for (int i = 0; i < m_->nq; ++i) finite = finite && std::isfinite(d_->qpos[i]);
    for (int i = 0; i < m_->nv; ++i) finite = finite && std::isfinite(d_->qvel[i]);
    return {1.0, !finite || std::abs(d_->qpos[1]) > 0.2, false};
  }

  void observe(double* out) const override {
    for (int i = 0; i < m_->nq; ++i) *out++ = d_->qpos[i];
    for (int i = 0; i < m_->nv; ++i) *out++ = d_->qvel[i];
  }
};

}  // namespace

task_info inverted_pendulum_task() {
  return {"InvertedPendulum-v4", {}, [](const env_config& c) {
            task_options("InvertedPendulum-v4", {}, c.mujoco);  // refuses any argument
            return std::unique_ptr<env>(new inverted_pendulum());
          }};
}

}  // namespace troupe::envs::mujoco
