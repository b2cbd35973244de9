#pragma once
// The MJCF models of the MuJoCo tasks: found beside the executable once
// installed (share/troupe/mujoco) or in the source tree
// (envs/mujoco/models), compiled once per process and shared read-only by
// every environment that uses them (MuJoCo steps many mjData on one
// mjModel; mj_step only reads the model).
#include <memory>
#include <string>

#include <mujoco/mujoco.h>

namespace troupe::envs::mujoco {

// Where the model `file` lies: a bare name is looked up among Troupe's
// models, anything with a '/' is a path. Throws env_key_error naming
// `config_key` when there is no such file.
std::string model_path(const std::string& file, const std::string& config_key);

// The compiled model at `path`, shared. Throws env_key_error naming
// `config_key` with MuJoCo's own message when the file does not compile.
std::shared_ptr<const mjModel> load_model(const std::string& path, const std::string& config_key);

}  // namespace troupe::envs::mujoco
