#include "envs/data_file.hpp"

#include <vector>

#include "envs/env_error.hpp"

namespace troupe::envs {

namespace fs = std::filesystem;

std::string data_file(const fs::path& installed, const fs::path& in_sources, const std::string& config_key,
                      const std::string& what) {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "troupe" / installed);
#ifdef TROUPE_SOURCE_DIR
  candidates.push_back(fs::path(TROUPE_SOURCE_DIR) / in_sources);
#endif
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  std::string looked;
  for (const auto& c : candidates) looked += (looked.empty() ? "" : ", ") + c.string();
  throw env_key_error(config_key, what + " is missing (looked in " + looked + ")");
}

}  // namespace troupe::envs
