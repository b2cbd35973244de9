// The config loader (YAML and --set): any text is a config or a config_error,
// never a crash, a hang or another exception; and a config that loads writes
// out (to_yaml, as config.yaml in every run directory, which --resume and
// cluster workers read back) to text that loads to the same config.
#include <sstream>

#include "run/config_loader.hpp"
#include "tests/fuzz/fuzz_targets.hpp"

namespace troupe::fuzz {

bool config_input(const std::uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n#--set\n";
  const size_t split = input.find(marker);
  const std::string yaml = input.substr(0, split);
  std::vector<std::string> overrides;
  if (split != std::string::npos) {
    std::istringstream lines(input.substr(split + marker.size()));
    for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  }
  run::run_config config;
  try {
    config = run::load_config_text(yaml, "fuzz.yaml", overrides);
  } catch (const run::config_error&) {
    return false;  // refused, with a message: what bad input gets
  }
  const std::string written = run::to_yaml(config);
  std::string again;
  try {
    again = run::to_yaml(run::load_config_text(written, "config.yaml"));
  } catch (const run::config_error& e) {
    throw fuzz_finding("a config that loaded was written out as one that does not: " +
                       std::string(e.what()) + "\n--- written:\n" + written);
  }
  if (again != written)
    throw fuzz_finding("a config changed on its way out and back in:\n--- first:\n" + written +
                       "--- then:\n" + again);
  return true;
}

}  // namespace troupe::fuzz
