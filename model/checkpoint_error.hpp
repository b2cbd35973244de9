#pragma once
// A checkpoint that cannot be written or read: missing, damaged, of another
// format or architecture. The message names the file and what is wrong.
#include <stdexcept>

namespace troupe::model {

struct checkpoint_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace troupe::model
