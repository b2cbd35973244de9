#include "envs/mujoco/model_file.hpp"

#include <filesystem>
#include <map>
#include <mutex>

#include "envs/data_file.hpp"
#include "envs/env_error.hpp"
#include "envs/mujoco/task_model.hpp"

namespace troupe::envs::mujoco {

namespace fs = std::filesystem;

std::string model_path(const std::string& file, const std::string& config_key) {
  if (file.find('/') != std::string::npos) {
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) return file;
    throw env_key_error(config_key, "the MuJoCo model " + file + " is not a file");
  }
  return data_file(fs::path("mujoco") / file, fs::path("envs") / "mujoco" / "models" / file, config_key,
                   "the MuJoCo model " + file);
}

std::shared_ptr<const mjModel> load_model(const std::string& path, const std::string& config_key) {
  // One compiled model per file while any environment holds it; the lock
  // also keeps MuJoCo's parser to one thread at a time.
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const mjModel>> loaded;
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto model = loaded[key].lock()) return model;
  char error[1000] = "";
  mjModel* model = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  if (!model)
    throw env_key_error(config_key, "the MuJoCo model " + path + " does not load: " +
                                        (error[0] ? std::string(error) : "no reason given"));
  std::shared_ptr<const mjModel> shared(model, [](const mjModel* m) { mj_deleteModel(const_cast<mjModel*>(m)); });
  loaded[key] = shared;
  return shared;
}

int named(const mjModel& m, mjtObj type, const char* name, const std::string& config_key) {
  const int id = mj_name2id(&m, type, name);
  if (id < 0)
    throw env_key_error(config_key, std::string("the MuJoCo model has no ") +
                                                   (type == mjOBJ_SITE ? "site" : "body") + " named '" + name + "'");
  return id;
}

}  // namespace troupe::envs::mujoco
