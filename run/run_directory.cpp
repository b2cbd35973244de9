#include "run/run_directory.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <vector>

#include "run/config_loader.hpp"
#include "model/checkpoint.hpp"

namespace troupe::run {

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
  out.close();  // a full disk may only show when the buffer is written out
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

std::string run_directory::resume_point() const {
  if (!std::filesystem::is_directory(root)) throw config_error(root + ": no such run directory");
  const std::vector<std::string> found = checkpoints().all();
  if (found.empty())
    throw config_error(root + ": no checkpoint to resume from in " + root + "/checkpoints");
  try {
    model::read_checkpoint_meta(found.back());
    return found.back();
  } catch (const model::checkpoint_error& e) {
    // Resuming from an older checkpoint silently would throw training away:
    // say which one would load, and let the user decide.
    std::string hint;
    for (auto older = found.rbegin() + 1; older != found.rend(); ++older) {
      try {
        model::read_checkpoint_meta(*older);
        hint = "; the older " + *older + " loads: move the damaged one aside to resume from it";
        break;
      } catch (const model::checkpoint_error&) {
      }
    }
    throw config_error(e.what() + hint);
  }
}

}  // namespace troupe::run
