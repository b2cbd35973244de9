// Every malformed config, through the real command line: exit code 2, a
// message naming the file and the key, within a second.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/app/bad_configs.hpp"
#include "tests/e2e/process.hpp"

TEST_SUITE("e2e") {
TEST_CASE("troupe config --check rejects every malformed config with exit code 2") {
  const auto dir = std::filesystem::temp_directory_path() / "troupe_bad_input";
  std::filesystem::create_directories(dir);
  const auto cases = troupe::tests::bad_configs();
  REQUIRE(cases.size() >= 30);
  int index = 0;
  for (const auto& c : cases) {
    const std::string path = (dir / ("bad" + std::to_string(index++) + ".yaml")).string();
    std::ofstream(path, std::ios::binary) << c.content;
    CAPTURE(c.content);
    const auto start = std::chrono::steady_clock::now();
    const auto [code, output] =
        troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check " + path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CAPTURE(output);
    CHECK(code == 2);
    // Never a hang: the answer comes at once (about 0.4 s on a quiet 2-core
    // machine, mostly loading LibTorch); the bound only has to tell "at once"
    // from "stuck", also on a loaded machine.
    CHECK(seconds < 15.0);
    CHECK(output.find(path) != std::string::npos);
    for (const auto& part : c.must_contain) CHECK(output.find(part) != std::string::npos);
  }
  // A directory, a missing file and an unknown flag.
  const auto run = [](const std::string& args) {
    return WEXITSTATUS(std::system((std::string(TROUPE_BINARY) + " " + args + " >/dev/null 2>&1").c_str()));
  };
  CHECK(run("config --check " + dir.string()) == 2);
  CHECK(run("config --check /nonexistent.yaml") == 2);
  CHECK(run("train --no-such-flag x.yaml") == 2);
}
}
