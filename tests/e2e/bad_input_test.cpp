// Every malformed config, through the real command line: exit code 2, a
// message naming the file and the key, at once.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app/bad_configs.hpp"
#include "tests/e2e/process.hpp"

TEST_SUITE("e2e") {
TEST_CASE("troupe config --check rejects every malformed config with exit code 2") {
  const auto dir = std::filesystem::temp_directory_path() / "troupe_bad_input";
  std::filesystem::create_directories(dir);
  const auto cases = troupe::tests::bad_configs();
  REQUIRE(cases.size() >= 30);
  std::vector<std::string> paths;
  for (size_t i = 0; i < cases.size(); ++i) {
    paths.push_back((dir / ("bad" + std::to_string(i) + ".yaml")).string());
    std::ofstream(paths.back(), std::ios::binary) << cases[i].content;
  }
  // All in one call: each file's error in turn (the process is mostly
  // LibTorch loading: one call a file took 38 s of the suite one after
  // another, 45 s four at a time on 2 cores).
  std::string all;
  for (const auto& path : paths) all += " " + path;
  const auto start = std::chrono::steady_clock::now();
  const auto checked = troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check" + all);
  // Never a hang: the answer comes at once (about 1 s); the bound only has
  // to tell "at once" from "stuck", also on a loaded machine.
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 60.0);
  CHECK(checked.exit_code == 2);
  CHECK(checked.output.find(": ok") == std::string::npos);
  // One error a file, in the files' order.
  const std::string marker = "troupe: error: ";
  std::vector<std::string> errors;
  for (size_t at = checked.output.find(marker); at != std::string::npos;) {
    const size_t next = checked.output.find(marker, at + marker.size());
    errors.push_back(checked.output.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  REQUIRE(errors.size() == cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(cases[i].content);
    CAPTURE(errors[i]);
    CHECK(errors[i].find(paths[i]) != std::string::npos);
    for (const auto& part : cases[i].must_contain) CHECK(errors[i].find(part) != std::string::npos);
  }
  // Alone, each is refused with exit code 2 too (a few of them); good files
  // beside a bad one pass, and the call still fails.
  for (size_t i = 0; i < cases.size(); i += cases.size() / 4) {
    CAPTURE(cases[i].content);
    const auto alone = troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check " + paths[i]);
    CHECK(alone.exit_code == 2);
    CHECK(alone.output.find(paths[i]) != std::string::npos);
  }
  const std::string good = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml";
  const auto mixed =
      troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check " + good + " " + paths[0] + " " + good);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.output.find(good + ": ok") != std::string::npos);
  CHECK(mixed.output.find(paths[0]) != std::string::npos);
  CHECK(troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check " + good + " " + good).exit_code == 0);
  // A directory, a missing file and an unknown flag.
  const auto run = [](const std::string& args) {
    return WEXITSTATUS(std::system((std::string(TROUPE_BINARY) + " " + args + " >/dev/null 2>&1").c_str()));
  };
  CHECK(run("config --check " + dir.string()) == 2);
  CHECK(run("config --check /nonexistent.yaml") == 2);
  CHECK(run("train --no-such-flag x.yaml") == 2);
}
}
