#pragma once
// A tensor's values as a host vector of floats, flattened (empty for an
// undefined tensor): how parameter and optimiser states become plain values
// (model/parameter_state.hpp, algo/learned_state.hpp).
#include <vector>

#include <torch/torch.h>

namespace troupe::model {

inline std::vector<float> host_values(const torch::Tensor& t) {
  if (!t.defined()) return {};
  const torch::Tensor host = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
  return std::vector<float>(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
}

}  // namespace troupe::model
