#pragma once
// What a learner has learned, as plain values (algo::learner::export_state):
// its model's parameter state and its optimiser's state. Population-based
// training's exploit sends one from the source member's learner to the
// target's by message (actors/league/pbt_driver.hpp). Plain C++.
#include <cstdint>
#include <string>
#include <vector>

#include "model/parameter_state.hpp"

namespace troupe::algo {

// The state of the optimiser that steps a model's flat parameters
// (algo/optimizer.hpp): its kind, its step count and its tensors, each laid
// out as the flat parameters (an empty one: not kept by this optimiser).
//   adam:    exp_avg, exp_avg_sq, max_exp_avg_sq
//   rmsprop: square_avg, momentum_buffer, grad_avg
struct optimizer_state {
  std::string kind;  // "adam", "rmsprop"; empty: no step taken yet
  std::int64_t step = 0;
  std::vector<std::vector<float>> tensors;
};

struct learned_state {
  model::parameter_state parameters;
  optimizer_state optimizer;
};

}  // namespace troupe::algo
