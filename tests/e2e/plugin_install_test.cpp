// End-to-end: a plugin author's path. Troupe is installed into a temporary
// prefix (cmake --install), examples/plugin_env is built against that install
// with find_package(Troupe), and the installed troupe trains the plugin to
// its target; a plugin built for another ABI is refused with exit code 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/bridges/python/host_processes.hpp"
#include "tests/e2e/installed_troupe.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace fs = std::filesystem;
using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("plugins: built against an installed Troupe, trained by the installed troupe") {
  const std::string source = TROUPE_SOURCE_DIR;
  const std::string prefix = install_troupe("install_prefix");
  for (const char* file : {"bin/troupe", "include/troupe/env_plugin.h",
                           "share/troupe/python/troupe_env_host.py", "share/troupe/python/troupe_spaces.py",
                           "share/troupe/scripts/plot.py",
                           "lib/cmake/Troupe/TroupeConfig.cmake",
                           "lib/cmake/Troupe/TroupeConfigVersion.cmake",
                           "lib/cmake/Troupe/TroupeTargets.cmake"}) {
    CAPTURE(file);
    CHECK(fs::exists(fs::path(prefix) / file));
  }

  const std::string plugin_build = build_example("plugin_env", prefix, "plugin_build");
  const std::string plugin = plugin_build + "/libsignal_env.so";
  REQUIRE(fs::exists(plugin));

  const std::string troupe = prefix + "/bin/troupe";
  const std::string run_dir = fresh_dir("plugin_run");
  const auto train = run_command(troupe + " train " + source + "/examples/plugin_env/signal.yaml" +
                                 " --set env.id=plugin:" + plugin + " --run-dir " + run_dir +
                                 " --set log.progress=false");
  INFO(train.output);
  REQUIRE(train.exit_code == 0);
  const auto s = read_json(run_dir + "/summary.json");
  CHECK(s["solved"] == true);
  CHECK(s["final_mean_return"].get<double>() >= 9.5);
  check_accounting(s);
  const auto eval = run_command(troupe + " eval " + run_dir + " --episodes 20");
  INFO(eval.output);
  CHECK(eval.exit_code == 0);

  // The installed troupe runs Python environments with its installed host.
  const std::string marker = host_marker("installed");
  const auto python = run_command(troupe + " rollout python:cartpole_py:make --episodes 3" +
                                  " --set env.python_path=[" + source + "/examples/python_env," +
                                  marker + "]");
  INFO(python.output);
  CHECK(python.exit_code == 0);
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("plugins: a plugin built for another ABI version is refused with exit code 2") {
  const auto r = run_troupe("train " + std::string(TROUPE_SOURCE_DIR) +
                            "/examples/plugin_env/signal.yaml --set env.id=plugin:" +
                            TROUPE_TEST_WRONG_ABI_PLUGIN + " --run-dir " + fresh_dir("wrong_abi"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "key 'env.id'"));
  CHECK(contains(r.output, "libtroupe_test_wrong_abi_plugin.so"));
  CHECK(contains(r.output, "plugin ABI version 2, this troupe speaks 1"));
  const auto missing = run_troupe("train " + std::string(TROUPE_SOURCE_DIR) +
                                  "/examples/plugin_env/signal.yaml --set env.id=plugin:/no/such.so");
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.output, "no such plugin file /no/such.so"));
}
}
