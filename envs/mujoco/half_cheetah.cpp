// HalfCheetah-v4: a planar cat running forward; the reward is its forward
// speed less a cost on the actions; no state ends an episode.
#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape half_cheetah_shape{"HalfCheetah-v4", 5, 1, false, true, false, true,
    projection{false, true, 120, 0.3}};

class half_cheetah final : public forward_task {
 public:
  explicit half_cheetah(const task_options& o)
      : forward_task(half_cheetah_shape, o, fixed_model("half_cheetah.xml")) {}
};

std::vector<kwarg> half_cheetah_kwargs() {
  return {number("forward_reward_weight", 1.0, "weight of the forward speed (x velocity) in the reward"),
          number("ctrl_cost_weight", 0.1, "weight of the sum of squared actions subtracted from the reward"),
          number("reset_noise_scale", 0.1, "positions start uniform in +-this around the model's, velocities this x a standard normal"),
          flag("exclude_current_positions_from_observation", true, "leave the x position out of the observation")};
}

}  // namespace

task_info half_cheetah_task() {
  return {half_cheetah_shape.id, half_cheetah_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new half_cheetah(task_options(half_cheetah_shape.id, half_cheetah_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
