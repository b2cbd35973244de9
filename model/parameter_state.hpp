#pragma once
// What a model holds at one version, as plain values: every parameter and
// buffer on the host, its normalisation statistics and its version. Taken
// inside the parameters' critical section and written into another model
// inside that one's (model/shared_model.hpp), it is the one way parameters
// are copied: onto a replica, into a self-play snapshot or an evaluator's
// copy, and from one population member to another by message (a plain
// value: nothing of the source is reachable through it). Plain C++.
#include <cstdint>
#include <vector>

#include "model/running_moments.hpp"

namespace troupe::model {

struct parameter_state {
  std::vector<float> flat;                  // every parameter, in parameters() order
  std::vector<std::vector<float>> buffers;  // every buffer, in buffers() order, flattened
  running_moments obs_moments, return_moments;
  std::uint64_t version = 0;
};

}  // namespace troupe::model
