// Every input kept for the fuzz targets, replayed through them on every test
// run: the corpora (seeds and what the fuzzer found interesting) and the
// regressions (inputs that once crashed a target or broke its promise, each
// fixed). Under scripts/sanitize.sh this runs with ASan and UBSan too.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/fuzz/fuzz_targets.hpp"

namespace fs = std::filesystem;
using namespace troupe::fuzz;

namespace {

const fs::path fuzz_dir = fs::path(TROUPE_SOURCE_DIR) / "tests" / "fuzz";

std::vector<fs::path> inputs_in(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs the target on every input of `dir`. A seed (tests/fuzz/seed_writer.cpp)
// must go all the way, unless its name says it is refused: else the fuzzer
// would start from inputs that never reach the code behind the checks.
void replay(const fuzz_target& target, const fs::path& dir) {
  for (const auto& file : inputs_in(dir)) {
    const std::string name = file.filename().string();
    CAPTURE(name);
    const std::string input = bytes_of(file);
    bool accepted = false;
    try {
      accepted = target.run(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    } catch (const std::exception& e) {
      FAIL_CHECK(target.name << " on " << name << ": " << e.what());
      continue;
    }
    if (name.rfind("seed-", 0) == 0) CHECK(accepted == (name.rfind("seed-refused-", 0) != 0));
  }
}

}  // namespace

TEST_SUITE("fuzz") {
TEST_CASE("fuzz corpora: every kept input passes its target; the seeds go all the way") {
  for (const auto& target : fuzz_targets()) {
    CAPTURE(target.name);
    const fs::path corpus = fuzz_dir / "corpus" / target.name;
    REQUIRE_MESSAGE(!inputs_in(corpus).empty(), "no corpus in " << corpus.string());
    replay(target, corpus);
  }
}

TEST_CASE("fuzz regressions: inputs that once broke a target pass it now") {
  for (const auto& target : fuzz_targets()) {
    CAPTURE(target.name);
    replay(target, fuzz_dir / "regressions" / target.name);
  }
}
}
