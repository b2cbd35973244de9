#pragma once
// The definition of shared_model, for the LibTorch files that train it.
#include <atomic>
#include <optional>
#include <vector>

#include "model/actor_critic.hpp"
#include "model/critical_section.hpp"
#include "model/shared_model.hpp"

namespace troupe::model {

struct shared_model {
  explicit shared_model(const net_spec& s, torch::Device d = torch::kCPU)
      : spec(s), device(d), net(s), params("parameters", {net.get()}, claim::exclusive) {
    if (!device.is_cpu()) net->to(device);
  }
  net_spec spec;
  torch::Device device;  // where the parameters live and forward passes run
  ActorCritic net;
  // Guards net's parameters and version: updates run exclusively, forward
  // passes shared.
  critical_section params;
  std::uint64_t version = 0;
  // Set by judge_parameters: updates are refused from then on.
  std::atomic<bool> frozen{false};
};

// One atomic update: inside the parameters' critical section, installs
// `gradients` (one per parameter, in parameters() order), steps `optimizer`
// and moves the version forward by exactly one. Returns the new version, or
// nothing when the parameters are frozen and the update was refused.
// Gradients are passed in rather than left in the parameters' .grad fields,
// so learners on other threads can compute theirs at the same time. When
// `delta` is not null, it receives the change the step made to every
// parameter, flattened (what apply_delta adds to another replica).
std::optional<std::uint64_t> apply_gradients(shared_model& model, torch::optim::Optimizer& optimizer,
                                             const std::vector<torch::Tensor>& gradients,
                                             std::vector<float>* delta = nullptr);

}  // namespace troupe::model
