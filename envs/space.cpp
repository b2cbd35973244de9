#include "envs/env.hpp"

#include <sstream>

namespace troupe::envs {

int space::flat_size() const {
  if (type == kind::discrete) return 1;
  if (type == kind::multi_discrete) return int(nvec.size());
  if (type == kind::hybrid) return int(nvec.size()) + continuous_size();
  int size = 1;
  for (int d : shape) size *= d;
  return size;
}

std::vector<int> space::categories() const {
  if (type == kind::discrete) return {n};
  if (type == kind::multi_discrete || type == kind::hybrid) return nvec;
  return {};
}

int space::continuous_size() const {
  if (type != kind::box && type != kind::hybrid) return 0;
  int size = 1;
  for (int d : shape) size *= d;
  return size;
}

int space::choice_count() const {
  int total = 0;
  for (int c : categories()) total += c;
  return total;
}

std::string space::describe() const {
  std::ostringstream out;
  if (type == kind::discrete) {
    out << "Discrete(" << n << ")";
  } else if (type == kind::multi_discrete || type == kind::hybrid) {
    out << "MultiDiscrete([";
    for (size_t i = 0; i < nvec.size(); ++i) out << (i ? " " : "") << nvec[i];
    out << "])";
    if (type == kind::hybrid) out << " + Box(" << continuous_size() << ")";
  } else {
    out << "Box(";
    for (size_t i = 0; i < shape.size(); ++i) out << (i ? "x" : "") << shape[i];
    out << ")";
  }
  if (!declared.empty()) out << " from " << declared;
  return out.str();
}

}  // namespace troupe::envs
