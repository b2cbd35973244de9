#pragma once
// Reads the golden data recorded from the reference implementations.
#include <cstddef>
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

// A recorded state, a JSON array of numbers, as an environment's state (a
// std::array of doubles).
template <class State>
State state_from_json(const nlohmann::json& j) {
  State out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = j.at(i).get<double>();
  return out;
}

}  // namespace troupe::tests
