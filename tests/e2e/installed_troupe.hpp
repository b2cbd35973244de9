#pragma once
// A user's path past the build tree: this build installed into a fresh
// prefix (cmake --install), and one of examples/ built against that install
// with find_package(Troupe), as its README tells a user to.
#include <doctest/doctest.h>

#include <string>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace troupe::tests {

// This build installed into <temp>/troupe_<name>; that prefix.
inline std::string install_troupe(const std::string& name) {
  const std::string prefix = fresh_dir(name);
  const auto install = run_command("cmake --install " + std::string(TROUPE_BUILD_DIR) + " --prefix " + prefix);
  INFO(install.output);
  REQUIRE(install.exit_code == 0);
  return prefix;
}

// examples/<example> configured and built against the Troupe installed at
// `prefix`, in <temp>/troupe_<build_name>; that build directory.
inline std::string build_example(const std::string& example, const std::string& prefix,
                                 const std::string& build_name) {
  const std::string build = fresh_dir(build_name);
  const auto configure = run_command("cmake -S " + std::string(TROUPE_SOURCE_DIR) + "/examples/" + example +
                                     " -B " + build + " -DCMAKE_PREFIX_PATH=" + prefix);
  INFO(configure.output);
  REQUIRE(configure.exit_code == 0);
  const auto compiled = run_command("cmake --build " + build);
  INFO(compiled.output);
  REQUIRE(compiled.exit_code == 0);
  return build;
}

}  // namespace troupe::tests
