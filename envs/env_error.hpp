#pragma once
// An environment that cannot be made as configured: a Python module that does
// not import, a callable that is missing, a space Troupe cannot take, a
// plugin built for another ABI. Thrown where environments are made; the
// commands report it as bad input (exit code 2), naming the key env.id.
#include <stdexcept>

namespace troupe::envs {

struct env_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace troupe::envs
