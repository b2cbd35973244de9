#include "model/checkpoint_store.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>


namespace troupe::model {

namespace fs = std::filesystem;

checkpoint_store::checkpoint_store(std::string run_dir, int keep)
    : dir_(std::move(run_dir) + "/checkpoints"), keep_(std::max(1, keep)) {}

std::string checkpoint_store::path_for(std::int64_t env_steps) const {
  fs::create_directories(dir_);
  char name[64];
  std::snprintf(name, sizeof name, "/ckpt-%014lld.pt", static_cast<long long>(env_steps));
  return dir_ + name;
}

std::vector<std::string> checkpoint_store::all() const {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("ckpt-", 0) == 0 && entry.path().extension() == ".pt")
      found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

void checkpoint_store::prune() const {
  const auto found = all();
  for (size_t i = 0; i + keep_ < found.size(); ++i) fs::remove(found[i]);
}

std::string checkpoint_store::newest() const {
  const auto found = all();
  return found.empty() ? std::string() : found.back();
}

}  // namespace troupe::model
