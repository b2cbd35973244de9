#pragma once
// Reads the golden data recorded from the reference implementations.
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace troupe::tests {

inline nlohmann::json load_reference(const std::string& relative_path) {
  const std::string path = std::string(TROUPE_REFERENCE_DIR) + "/" + relative_path;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("reference data missing: " + path);
  return nlohmann::json::parse(in);
}

}  // namespace troupe::tests
