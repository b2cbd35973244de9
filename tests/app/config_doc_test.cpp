// docs/config.md is the output of `troupe config --describe`, which is generated
// from the same field table that parses configs: this test keeps them equal.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/e2e/process.hpp"

namespace {

// Only stdout: the describe text itself.
troupe::tests::command_result run_describe() {
  return troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --describe", false);
}

// The describe text inside docs/config.md: everything between the line
// "```text" and the last line "```" (scripts/update_config_doc.sh writes them).
std::string described_part(const std::string& doc) {
  const std::string open = "\n```text\n", close = "\n```\n";
  const size_t begin = doc.find(open);
  const size_t end = doc.rfind(close);
  if (begin == std::string::npos || end == std::string::npos || end < begin + open.size() - 1)
    return "(no ```text block found)";
  return doc.substr(begin + open.size(), end + 1 - (begin + open.size()));
}

// The first line where two texts differ, for the failure message.
std::string first_difference(const std::string& doc, const std::string& binary) {
  std::istringstream a(doc), b(binary);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "(they differ only in line endings)";
    if (!more_a) la = "(end of block)";
    if (!more_b) lb = "(end of output)";
    if (!more_a || !more_b || la != lb)
      return "line " + std::to_string(line) + " of the block:\n  docs/config.md: " + la +
             "\n  --describe:     " + lb;
  }
}

}  // namespace

TEST_SUITE("app") {
TEST_CASE("docs/config.md is exactly what `troupe config --describe` prints") {
  const std::string path = std::string(TROUPE_SOURCE_DIR) + "/docs/config.md";
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), path << " is missing: run scripts/update_config_doc.sh");
  std::stringstream buffer;
  buffer << in.rdbuf();

  const troupe::tests::command_result described = run_describe();
  REQUIRE(described.exit_code == 0);
  REQUIRE(!described.output.empty());

  const std::string documented = described_part(buffer.str());
  if (documented != described.output)
    FAIL_CHECK("docs/config.md differs from `troupe config --describe` (a config key was "
               "added or changed): regenerate it with\n  scripts/update_config_doc.sh "
               << TROUPE_BINARY << "\nand commit the result. First difference at "
               << first_difference(documented, described.output));
}
}
