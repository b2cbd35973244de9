#pragma once
// Files the executable runs from (the Python environment host, the MuJoCo
// models): installed under <prefix>/share/troupe beside it, or, in a build
// tree, found in the sources.
#include <filesystem>
#include <string>

namespace troupe::envs {

// The path of `installed` (relative to share/troupe) beside the running
// executable, else of `in_sources` (relative to the source tree). Throws
// env_key_error(config_key, "<what> is missing (looked in ...)").
std::string data_file(const std::filesystem::path& installed, const std::filesystem::path& in_sources,
                      const std::string& config_key, const std::string& what);

}  // namespace troupe::envs
