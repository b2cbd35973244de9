// What an env.id names, read from its prefix without importing or loading.
#include <doctest/doctest.h>

#include "envs/env_config.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"

using namespace troupe::envs;

TEST_SUITE("envs") {
TEST_CASE("env ids: python:MODULE:CALLABLE, gymnasium:ENV_ID and plugin:PATH by their prefix") {
  const env_id p("python:my_pkg.envs:Factory.make");
  CHECK(p.source() == env_source::python);
  CHECK(p.module() == "my_pkg.envs");
  CHECK(p.callable() == "Factory.make");
  CHECK(p.text() == "python:my_pkg.envs:Factory.make");
  const env_id g("gymnasium:ALE/Pong-v5");
  CHECK(g.source() == env_source::gymnasium);
  CHECK(g.target() == "ALE/Pong-v5");
  CHECK(env_id("gymnasium:my_module:MyEnv-v0").target() == "my_module:MyEnv-v0");
  const env_id so("plugin:build/libx.so");
  CHECK(so.source() == env_source::plugin);
  CHECK(so.target() == "build/libx.so");
  CHECK(env_id("CartPole-v1").source() == env_source::registered);
  for (const char* bad : {"python:", "python:mod", "python:mod:", "python::make", "python:1mod:make",
                          "python:mod:make:extra", "python:my-mod:make", "gymnasium:", "plugin:"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(env_id{bad}, env_key_error);
  }
}

TEST_CASE("env ids: a config's id is read when it is set, and a new id replaces every part") {
  env_config config;
  CHECK(config.id.source() == env_source::registered);
  config.id = "gymnasium:Acrobot-v1";
  CHECK(config.id.source() == env_source::gymnasium);
  CHECK(config.id.target() == "Acrobot-v1");
  config.id = "python:games:make";
  CHECK(config.id.source() == env_source::python);
  CHECK(config.id.target().empty());
  CHECK(config.id.module() == "games");
  CHECK(config.id == env_id("python:games:make"));
  CHECK_THROWS_AS(config.id = "python:no_callable", env_key_error);
  CHECK(config.id.text() == "python:games:make");  // a malformed id leaves the one before it
}
}
