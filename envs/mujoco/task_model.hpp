#pragma once
// The compiled model of a task: its own file, or (Ant-v4, the one v4 task
// that takes it) env.mujoco.xml_file, which a bad file is blamed on.
#include <memory>
#include <string>

#include "envs/mujoco/model_file.hpp"
#include "envs/mujoco/task_options.hpp"

namespace troupe::envs::mujoco {

inline std::string model_key(const task_options& options) {
  return options.given("xml_file") ? "env.mujoco.xml_file" : "env.id";
}

inline std::shared_ptr<const mjModel> task_model(const task_options& options) {
  return load_model(model_path(options.file("xml_file"), model_key(options)), model_key(options));
}

inline std::shared_ptr<const mjModel> fixed_model(const std::string& file) {
  return load_model(model_path(file, "env.id"), "env.id");
}

// The id of a named body or site; a model without it is not the task's
// (blamed on `config_key`).
int named(const mjModel& m, mjtObj type, const char* name, const std::string& config_key = "env.id");

}  // namespace troupe::envs::mujoco
