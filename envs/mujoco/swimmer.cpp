// Swimmer-v4: a three-link swimmer in a viscous fluid, seen from above. The
// reward is its forward speed less a cost on the actions; nothing ends an
// episode but the time limit.
#include "envs/mujoco/forward_task.hpp"
#include "envs/mujoco/task_model.hpp"
#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

namespace {

const forward_shape swimmer_shape{"Swimmer-v4", 4, 2, false, false, false, true,
    projection{true, true, 150, 0}};

class swimmer final : public forward_task {
 public:
  explicit swimmer(const task_options& o) : forward_task(swimmer_shape, o, fixed_model("swimmer.xml")) {}
};

std::vector<kwarg> swimmer_kwargs() {
  return {number("forward_reward_weight", 1.0, "weight of the forward speed (x velocity) in the reward"),
          number("ctrl_cost_weight", 1e-4, "weight of the sum of squared actions subtracted from the reward"),
          number("reset_noise_scale", 0.1, "positions and velocities start uniform in +-this around the model's"),
          flag("exclude_current_positions_from_observation", true, "leave the x and y positions out of the observation")};
}

}  // namespace

task_info swimmer_task() {
  return {swimmer_shape.id, swimmer_kwargs(), [](const env_config& c) {
            return std::unique_ptr<env>(
                new swimmer(task_options(swimmer_shape.id, swimmer_kwargs(), c.mujoco)));
          }};
}

}  // namespace troupe::envs::mujoco
