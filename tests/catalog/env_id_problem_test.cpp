// Why an env.id cannot be used, as the config loader reports it before
// anything is imported or loaded.
#include <doctest/doctest.h>

#include "catalog/registry.hpp"

using namespace troupe::catalog;

TEST_SUITE("catalog") {
TEST_CASE("env ids: the problems a config loader reports, before anything is imported") {
  CHECK(env_id_problem("CartPole-v1").empty());
  CHECK(env_id_problem("python:anything_at_all:make").empty());  // imported only when made
  CHECK(env_id_problem("gymnasium:CartPole-v1").empty());
  const std::string unknown = env_id_problem("Pong");
  CHECK(unknown.find("'Pong'") != std::string::npos);
  CHECK(unknown.find("CartPole-v1") != std::string::npos);
  CHECK(unknown.find("python:MODULE:CALLABLE") != std::string::npos);
  CHECK(env_id_problem("plugin:/no/such/plugin.so").find("no such plugin file /no/such/plugin.so") !=
        std::string::npos);
  CHECK(env_id_problem("plugin:" TROUPE_TEST_SIGNAL_PLUGIN).empty());
  CHECK(env_id_problem("python:x").find("python:MODULE:CALLABLE") != std::string::npos);
}
}
