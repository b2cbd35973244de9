#include "envs/env.hpp"

#include <sstream>

namespace troupe::envs {

int space::flat_size() const {
  if (type == kind::discrete) return 1;
  int size = 1;
  for (int d : shape) size *= d;
  return size;
}

std::string space::describe() const {
  std::ostringstream out;
  if (type == kind::discrete) {
    out << "Discrete(" << n << ")";
  } else {
    out << "Box(";
    for (size_t i = 0; i < shape.size(); ++i) out << (i ? "x" : "") << shape[i];
    out << ")";
  }
  return out.str();
}

}  // namespace troupe::envs
