#pragma once
// The message of the config_error that `load` throws, or "" when it throws
// none: what the config tests compare against.
#include <string>

#include "run/config_loader.hpp"

namespace troupe::tests {

template <class Load>
std::string config_error_of(Load&& load) {
  try {
    load();
  } catch (const run::config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace troupe::tests
