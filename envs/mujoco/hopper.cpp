// Hopper-v4: a planar one-legged hopper. The reward is its forward speed
// plus a bonus for being healthy, less a cost on the actions; an unhealthy
// state (fallen, tilted, or any of qpos[2:] and qvel outside a range) ends
// the episode.
#include <limits>

#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape hopper_shape{"Hopper-v4", 4, 1, true, false, true, true,
    projection{false, true, 120, 0.9}};

class hopper final : public forward_task {
 public:
  explicit hopper(const task_options& o)
      : forward_task(hopper_shape, o, fixed_model("hopper.xml")),
        state_range_(o.range("healthy_state_range")),
        z_range_(o.range("healthy_z_range")),
        angle_range_(o.range("healthy_angle_range")) {}

 private:
  // Strict inequalities throughout, as v4 writes them.
  bool healthy() const override {
    auto inside = [](double v, std::pair<double, double> r) { return r.first < v && v < r.second; };
    for (int i = 2; i < m_->nq; ++i)
      if (!inside(d_->qpos[i], state_range_)) return false;
    for (int i = 0; i < m_->nv; ++i)
      if (!inside(d_->qvel[i], state_range_)) return false;
    return inside(d_->qpos[1], z_range_) && inside(d_->qpos[2], angle_range_);
  }

  std::pair<double, double> state_range_, z_range_, angle_range_;
};

std::vector<kwarg> hopper_kwargs() {
  const double inf = std::numeric_limits<double>::infinity();
  return {number("forward_reward_weight", 1.0, "weight of the forward speed (x velocity) in the reward"),
          number("ctrl_cost_weight", 1e-3, "weight of the sum of squared actions subtracted from the reward"),
          number("healthy_reward", 1.0, "reward of every step the hopper is healthy (of every step while terminate_when_unhealthy)"),
          flag("terminate_when_unhealthy", true, "an unhealthy state ends the episode"),
          range("healthy_state_range", -100.0, 100.0, "healthy: every element of qpos[2:] and qvel strictly inside"),
          range("healthy_z_range", 0.7, inf, "healthy: the torso's height strictly inside"),
          range("healthy_angle_range", -0.2, 0.2, "healthy: the torso's angle strictly inside"),
          number("reset_noise_scale", 5e-3, "positions and velocities start uniform in +-this around the model's"),
          flag("exclude_current_positions_from_observation", true, "leave the x position out of the observation")};
}

}  // namespace

task_info hopper_task() {
  return {hopper_shape.id, hopper_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new hopper(task_options(hopper_shape.id, hopper_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
