#include "envs/mujoco/tasks.hpp"

namespace troupe::envs::mujoco {

const std::vector<task_info>& tasks() {
  static const std::vector<task_info> all = {
      half_cheetah_task(), hopper_task(),  walker2d_task(),
      ant_task(),          humanoid_task(), swimmer_task(),
      inverted_pendulum_task(), inverted_double_pendulum_task(), reacher_task(),
  };
  return all;
}

const task_info* find_task(const std::string& id) {
  for (const auto& t : tasks())
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace troupe::envs::mujoco
