#pragma once
// Whether /usr/bin/python3 can import torch (Debian's python3-torch), which
// the checks of exported policies in Python need. Asked once a process:
// importing torch takes about 2 s, and several tests ask.
#include <cstdlib>

namespace troupe::tests {

inline bool python_has_torch() {
  static const bool has = std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") == 0;
  return has;
}

}  // namespace troupe::tests
