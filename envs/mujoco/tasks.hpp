#pragma once
// The MuJoCo tasks, Gymnasium 0.29.1's v4 definitions under v4's ids: each
// with its keyword arguments (task_options.hpp) and its factory. The
// catalog (catalog/registry.cpp) gathers them; the config loader checks
// env.mujoco against their arguments; `troupe envs --describe` lists them.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/mujoco/task_options.hpp"

namespace troupe::envs::mujoco {

struct task_info {
  std::string id;
  std::vector<kwarg> kwargs;
  std::function<std::unique_ptr<env>(const env_config&)> make;
};

// One per task, in the order `troupe envs` lists them.
task_info half_cheetah_task();
task_info hopper_task();
task_info walker2d_task();
task_info ant_task();
task_info humanoid_task();
task_info swimmer_task();
task_info inverted_pendulum_task();
task_info inverted_double_pendulum_task();
task_info reacher_task();

const std::vector<task_info>& tasks();
// The task with this id, or null.
const task_info* find_task(const std::string& id);

}  // namespace troupe::envs::mujoco
