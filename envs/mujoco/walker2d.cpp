// Walker2d-v4: a planar two-legged walker. The reward is its forward speed
// plus a bonus for being healthy, less a cost on the actions; a torso too
// low, too high or too tilted ends the episode.
#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape walker2d_shape{"Walker2d-v4", 4, 1, true, false, true, true,
    projection{false, true, 120, 0.9}};

class walker2d final : public forward_task {
 public:
  explicit walker2d(const task_options& o)
      : forward_task(walker2d_shape, o, fixed_model("walker2d.xml")),
        z_range_(o.range("healthy_z_range")),
        angle_range_(o.range("healthy_angle_range")) {}

 private:
  bool healthy() const override {
    const double z = d_->qpos[1], angle = d_->qpos[2];
    return z_range_.first < z && z < z_range_.second && angle_range_.first < angle && angle < angle_range_.second;
  }

  std::pair<double, double> z_range_, angle_range_;
};

std::vector<kwarg> walker2d_kwargs() {
  return {number("forward_reward_weight", 1.0, "weight of the forward speed (x velocity) in the reward"),
          number("ctrl_cost_weight", 1e-3, "weight of the sum of squared actions subtracted from the reward"),
          number("healthy_reward", 1.0, "reward of every step the walker is healthy (of every step while terminate_when_unhealthy)"),
          flag("terminate_when_unhealthy", true, "an unhealthy state ends the episode"),
          range("healthy_z_range", 0.8, 2.0, "healthy: the torso's height strictly inside"),
          range("healthy_angle_range", -1.0, 1.0, "healthy: the torso's angle strictly inside"),
          number("reset_noise_scale", 5e-3, "positions and velocities start uniform in +-this around the model's"),
          flag("exclude_current_positions_from_observation", true, "leave the x position out of the observation")};
}

}  // namespace

task_info walker2d_task() {
  return {walker2d_shape.id, walker2d_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new walker2d(task_options(walker2d_shape.id, walker2d_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
