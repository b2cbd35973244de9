#pragma once
// Files the unit tests write, each test in a directory of its own under the
// system's temporary directory.
#include <filesystem>
#include <string>

namespace troupe::tests {

// The path of `name` in the temporary directory `test_dir` (made if missing).
inline std::string temp_file(const std::string& test_dir, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / test_dir;
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace troupe::tests
