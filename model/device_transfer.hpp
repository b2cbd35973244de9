#pragma once
// Where a model's tensors live, and moving a forward pass's data there and
// back. On a CPU device nothing moves. On a CUDA device (a CUDA build only),
// observations go through pinned host memory on a copy stream of their own,
// and the forward pass waits for the copy on the GPU, not on the host.
#include <string>

#include <torch/torch.h>

#include "model/actor_critic.hpp"
#include "model/shared_model.hpp"

namespace troupe::model {

// "cpu" or "cuda:N". Throws std::invalid_argument naming the device when it
// is malformed, when this build has no CUDA, or when device N is not there.
torch::Device parse_device(const std::string& name);

// A copy of `host` (a CPU tensor) on `device`, a CUDA device: through
// `staging`'s pinned buffers and copy stream when given, else a plain copy.
torch::Tensor host_to_device(const torch::Tensor& host, torch::Device device,
                             input_staging* staging);

// The forward pass's outputs, copied to the host.
actor_critic_output outputs_to_host(const actor_critic_output& out);

}  // namespace troupe::model
