#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/config_loader.hpp"

using troupe::app::config_error;
using troupe::app::load_config;

namespace {

const char* valid_config = R"(run:
  name: t
  seed: 3
env:
  id: CartPole-v1
  envs_per_agent: 4
algo:
  gamma: 0.9
  n_steps: 7
)";

std::string write_temp(const std::string& content, const std::string& name = "config.yaml") {
  const auto dir = std::filesystem::temp_directory_path() / "troupe_config_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

// The error message for a config, or "" when it loads.
std::string error_for(const std::string& content, std::vector<std::string> overrides = {}) {
  try {
    load_config(write_temp(content), overrides);
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("app") {
TEST_CASE("a valid config loads, with defaults for what it leaves out") {
  const auto c = load_config(write_temp(valid_config));
  CHECK(c.run.name == "t");
  CHECK(c.run.seed == 3);
  CHECK(c.env.envs_per_agent == 4);
  CHECK(c.algo.gamma == 0.9);
  CHECK(c.algo.n_steps == 7);
  CHECK(c.algo.optimizer == "rmsprop");  // default
  CHECK(c.devices == std::vector<std::string>{"cpu"});
}

TEST_CASE("--set overrides parse their values as YAML") {
  const auto c = load_config(write_temp(valid_config),
                             {"algo.gamma=0.5", "model.hidden=[32, 16]", "devices=[cpu]",
                              "run.stop.wall_seconds=3"});
  CHECK(c.algo.gamma == 0.5);
  CHECK(c.model.hidden == std::vector<int>{32, 16});
  CHECK(c.run.stop.wall_seconds == 3);
}

TEST_CASE("the resolved config written out loads back to the same values") {
  auto c = load_config(write_temp(valid_config), {"algo.lr=0.003", "model.hidden=[5]"});
  const auto again = load_config(write_temp(troupe::app::to_yaml(c), "resolved.yaml"));
  CHECK(troupe::app::to_yaml(again) == troupe::app::to_yaml(c));
  CHECK(again.algo.lr == 0.003);
  CHECK(again.model.hidden == std::vector<int>{5});
}

TEST_CASE("bad configs name the file, line, key and what was expected") {
  const std::string file = write_temp("");  // the path every message starts with
  struct bad_case {
    std::string content;
    std::vector<std::string> must_contain;
  };
  const std::string head = "run:\n  name: t\nenv:\n  id: CartPole-v1\n";
  const std::vector<bad_case> cases = {
      {"", {"is empty"}},
      {"- just\n- a list\n", {"mapping"}},
      {"run: [unclosed\n", {"YAML syntax error", ":1:"}},
      {"run:\n  name: t\n   bad_indent: 1\n", {"YAML syntax error", ":3:"}},
      {head + "algo:\n  gamma: abc\n", {":6:10", "algo.gamma", "expected a number"}},
      {head + "algo:\n  gamma: 1.5\n", {"algo.gamma", "[0, 1]", "1.5"}},
      {head + "algo:\n  gama: 0.9\n", {":6:3", "algo.gama", "unknown key", "did you mean 'algo.gamma'"}},
      {head + "algo:\n  n_steps: 2.5\n", {"algo.n_steps", "expected an integer", "2.5"}},
      {head + "algo:\n  n_steps: 0\n", {"algo.n_steps", "[1, 10000]"}},
      {head + "algo:\n  lr: 0\n", {"algo.lr", "(0, 1]"}},
      {head + "algo:\n  optimizer: sgd\n", {"algo.optimizer", "rmsprop | adam", "'sgd'"}},
      {head + "algo: 3\n", {"algo", "expected a mapping"}},
      {head + "agents:\n  count: -1\n", {"agents.count", "[1, 1024]"}},
      {head + "agents:\n  count: [1]\n", {"agents.count", "expected an integer, got a list"}},
      {head + "model:\n  hidden: 64\n", {"model.hidden", "list of integers"}},
      {head + "model:\n  hidden: [64, x]\n", {"model.hidden", "'x'"}},
      {head + "devices: cpu\n", {"devices", "list"}},
      {head + "devices: [gpu]\n", {"devices", "'gpu'"}},
      {head + "log:\n  progress: maybe\n", {"log.progress", "true or false"}},
      {head + "colour: red\n", {"colour", "unknown key"}},
      {head + "run:\n  name: again\n", {"duplicate"}},
      {"env:\n  id: CartPole-v1\n", {"missing required key 'run.name'"}},
      {"run:\n  name: t\n", {"missing required key 'env.id'"}},
      {"run:\n  name: t\nenv:\n  id: Pong\n", {"env.id", "CartPole-v1", "'Pong'"}},
      {"run:\n  name: t\n  stop:\n    env_steps: -5\nenv:\n  id: CartPole-v1\n", {":4:16", "run.stop.env_steps", "got -5"}},
      {std::string("run:\n  name: \0\x01\x02", 16), {"not a text file"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.content);
    const std::string message = error_for(c.content);
    REQUIRE_FALSE(message.empty());
    CHECK(message.find(file) == 0);  // every message starts with the file
    for (const auto& part : c.must_contain) {
      CAPTURE(part);
      CHECK(message.find(part) != std::string::npos);
    }
  }
}

TEST_CASE("bad files and overrides get clear errors") {
  CHECK_THROWS_WITH_AS(load_config("/nonexistent/troupe.yaml"), doctest::Contains("no such config file"), config_error);
  CHECK_THROWS_WITH_AS(load_config(std::filesystem::temp_directory_path().string()),
                       doctest::Contains("is a directory"), config_error);
  CHECK(error_for(valid_config, {"algo.gamma"}).find("expected dotted.key=value") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma=2"}).find("--set algo.gamma") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma.x=2"}).find("not a section") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gammma=0.9"}).find("did you mean 'algo.gamma'") != std::string::npos);
}
}
