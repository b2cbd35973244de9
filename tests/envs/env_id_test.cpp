// What an env.id names, read from its prefix without importing or loading.
#include <doctest/doctest.h>

#include "envs/env_error.hpp"
#include "envs/env_id.hpp"

using namespace troupe::envs;

TEST_SUITE("envs") {
TEST_CASE("env ids: python:MODULE:CALLABLE, gymnasium:ENV_ID and plugin:PATH by their prefix") {
  const auto p = parse_env_id("python:my_pkg.envs:Factory.make");
  CHECK(p.source == env_source::python);
  CHECK(p.module == "my_pkg.envs");
  CHECK(p.callable == "Factory.make");
  const auto g = parse_env_id("gymnasium:ALE/Pong-v5");
  CHECK(g.source == env_source::gymnasium);
  CHECK(g.target == "ALE/Pong-v5");
  CHECK(parse_env_id("gymnasium:my_module:MyEnv-v0").target == "my_module:MyEnv-v0");
  const auto so = parse_env_id("plugin:build/libx.so");
  CHECK(so.source == env_source::plugin);
  CHECK(so.target == "build/libx.so");
  CHECK(parse_env_id("CartPole-v1").source == env_source::registered);
  for (const char* bad : {"python:", "python:mod", "python:mod:", "python::make", "python:1mod:make",
                          "python:mod:make:extra", "python:my-mod:make", "gymnasium:", "plugin:"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_env_id(bad), env_key_error);
  }
}
}
