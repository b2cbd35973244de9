#include "actors/run_directory.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>

#include "actors/config_loader.hpp"

namespace troupe::actors {

run_directory run_directory::fresh(const std::string& run_name) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return {"runs/" + run_name + "-" + stamp};
}

void run_directory::create() const { std::filesystem::create_directories(root); }

void run_directory::write(const std::string& path, const std::string& content) {
  std::ofstream out(path);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string run_directory::resume_point() const {
  if (!std::filesystem::is_directory(root)) throw config_error(root + ": no such run directory");
  const std::string path = checkpoints().newest_loadable();
  if (path.empty())
    throw config_error(root + ": no checkpoint to resume from in " + root + "/checkpoints");
  return path;
}

}  // namespace troupe::actors
