#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "actors/config_loader.hpp"
#include "tests/app/bad_configs.hpp"

namespace actors = troupe::actors;
using troupe::actors::config_error;
using troupe::actors::load_config;

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
    actors::load_config(write_temp(content), overrides);
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("a valid config loads, with defaults for what it leaves out") {
  const auto c = actors::load_config(write_temp(valid_config));
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
  const auto c = actors::load_config(write_temp(valid_config),
                             {"algo.gamma=0.5", "model.hidden=[32, 16]", "devices=[cpu]",
                              "run.stop.wall_seconds=3", "agents.batch_scheduling=false"});
  CHECK(c.algo.gamma == 0.5);
  CHECK_FALSE(c.agents.batch_scheduling);
  CHECK(c.model.hidden == std::vector<int>{32, 16});
  CHECK(c.run.stop.wall_seconds == 3);
}

TEST_CASE("the resolved config written out loads back to the same values") {
  auto c = actors::load_config(write_temp(valid_config), {"algo.lr=0.003", "model.hidden=[5]"});
  const auto again = actors::load_config(write_temp(troupe::actors::to_yaml(c), "resolved.yaml"));
  CHECK(troupe::actors::to_yaml(again) == troupe::actors::to_yaml(c));
  CHECK(again.algo.lr == 0.003);
  CHECK(again.model.hidden == std::vector<int>{5});
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
  CHECK_THROWS_WITH_AS(actors::load_config("/nonexistent/troupe.yaml"), doctest::Contains("no such config file"), config_error);
  CHECK_THROWS_WITH_AS(actors::load_config(std::filesystem::temp_directory_path().string()),
                       doctest::Contains("is a directory"), config_error);
  CHECK(error_for(valid_config, {"algo.gamma"}).find("expected dotted.key=value") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma=2"}).find("--set algo.gamma") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gamma.x=2"}).find("not a section") != std::string::npos);
  CHECK(error_for(valid_config, {"algo.gammma=0.9"}).find("did you mean 'algo.gamma'") != std::string::npos);
}
}
