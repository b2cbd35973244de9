#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run/config_loader.hpp"
#include "tests/app/bad_configs.hpp"
#include "tests/temp_files.hpp"
#include "tests/run/config_error_of.hpp"

namespace run = troupe::run;
using troupe::run::config_error;
using troupe::run::load_config;

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
  const std::string path = troupe::tests::temp_file("troupe_config_test", name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// The error message for a config, or "" when it loads.
std::string error_for(const std::string& content, std::vector<std::string> overrides = {}) {
  return troupe::tests::config_error_of([&] { run::load_config(write_temp(content), overrides); });
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("a valid config loads, with defaults for what it leaves out") {
  const auto c = run::load_config(write_temp(valid_config));
  CHECK(c.run.name == "t");
  CHECK(c.run.seed == 3);
  CHECK(c.env.envs_per_agent == 4);
  CHECK(c.algo.gamma == 0.9);
  CHECK(c.algo.n_steps == 7);
  CHECK(c.algo.optimizer == troupe::algo::optimizer_kind::rmsprop);  // default
  CHECK(c.devices == std::vector<std::string>{"cpu"});
  CHECK(c.agents.batch_scheduling);  // default
}

TEST_CASE("--set overrides parse their values as YAML") {
  const auto c = run::load_config(write_temp(valid_config),
                             {"algo.gamma=0.5", "model.hidden=[32, 16]", "devices=[cpu]",
                              "run.stop.wall_seconds=3", "agents.batch_scheduling=false"});
  CHECK(c.algo.gamma == 0.5);
  CHECK_FALSE(c.agents.batch_scheduling);
  CHECK(c.model.hidden == std::vector<int>{32, 16});
  CHECK(c.run.stop.wall_seconds == 3);
}

TEST_CASE("the resolved config written out loads back to the same values") {
  auto c = run::load_config(write_temp(valid_config), {"algo.lr=0.003", "model.hidden=[5]"});
  const auto again = run::load_config(write_temp(troupe::run::to_yaml(c), "resolved.yaml"));
  CHECK(troupe::run::to_yaml(again) == troupe::run::to_yaml(c));
  CHECK(again.algo.lr == 0.003);
  CHECK(again.model.hidden == std::vector<int>{5});
}

TEST_CASE("Python environment keys: the prefixed ids, and env.kwargs kept as JSON and written back") {
  const std::string python = R"(run:
  name: t
env:
  id: CartPole-v1
  python: /usr/bin/python3
  python_path: [envs, /opt/more]
  processes_per_agent: 2
  kwargs:
    render_mode: rgb_array
    size: 7
    ratio: 0.25
    quoted: "123"
    flag: true
    nothing: ~
    nested: {layers: [1, 2], name: "x: y"}
)";
  const auto c = run::load_config(write_temp(python), {"env.id=python:my_envs.grid:make"});
  CHECK(c.env.id == "python:my_envs.grid:make");
  CHECK(c.env.python == "/usr/bin/python3");
  CHECK(c.env.python_path == std::vector<std::string>{"envs", "/opt/more"});
  CHECK(c.env.processes_per_agent == 2);
  CHECK(nlohmann::json::parse(c.env.kwargs) ==
        nlohmann::json::parse(R"({"render_mode": "rgb_array", "size": 7, "ratio": 0.25, "quoted": "123",
                                 "flag": true, "nothing": null,
                                 "nested": {"layers": [1, 2], "name": "x: y"}})"));
  // Written back as a mapping: "123" stays a string, everything reads back.
  const std::string yaml = run::to_yaml(c);
  CHECK(yaml.find("kwargs:") != std::string::npos);
  CHECK(yaml.find("\"123\"") != std::string::npos);
  const auto again = run::load_config(write_temp(yaml, "resolved.yaml"));
  CHECK(again.env.kwargs == c.env.kwargs);
  CHECK(run::to_yaml(again) == yaml);
  CHECK(run::load_config(write_temp(valid_config), {"env.id=gymnasium:ALE/Pong-v5"}).env.id ==
        "gymnasium:ALE/Pong-v5");
  CHECK(run::load_config(write_temp(valid_config)).env.kwargs == "{}");
}

TEST_CASE("load_env_options: an ENV_ID with env.* overrides, checked as in a config") {
  const auto e = run::load_env_options("python:m:f", {"env.kwargs={a: 1}", "env.python_path=[x]"});
  CHECK(e.id == "python:m:f");
  CHECK(e.kwargs == R"({"a":1})");
  CHECK(e.python_path == std::vector<std::string>{"x"});
  CHECK_THROWS_WITH_AS(run::load_env_options("CartPole-v1", {"algo.gamma=0.5"}),
                       doctest::Contains("only env.* keys"), config_error);
  CHECK_THROWS_WITH_AS(run::load_env_options("python:nope", {}),
                       doctest::Contains("python:MODULE:CALLABLE"), config_error);
  CHECK_THROWS_WITH_AS(run::load_env_options("CartPole-v1", {"env.kwargs=[1]"}),
                       doctest::Contains("env.kwargs"), config_error);
}

TEST_CASE("bad configs name the file, line, key and what was expected") {
  const std::string file = write_temp("");  // the path every message starts with
  const auto cases = troupe::tests::bad_configs();
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
  CHECK_THROWS_WITH_AS(run::load_config("/nonexistent/troupe.yaml"), doctest::Contains("no such config file"), config_error);
  CHECK_THROWS_WITH_AS(run::load_config(std::filesystem::temp_directory_path().string()),
                       doctest::Contains("is a directory"), config_error);
  CHECK(error_for(valid_config, {"algo.gamma"}).find("expected dotted.key=value") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma=2"}).find("--set algo.gamma") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma.x=2"}).find("not a section") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gammma=0.9"}).find("did you mean 'algo.gamma'") != std::string::npos);
}
}
