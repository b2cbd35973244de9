#pragma once
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

namespace troupe::model {

struct optimizer_settings {
  std::string name = "rmsprop";  // rmsprop | adam | sgd
  double lr = 7e-4;
  double rmsprop_alpha = 0.99;
  double eps = 1e-5;
};

// Throws std::invalid_argument for an unknown optimiser name.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(
    const optimizer_settings& settings, const std::vector<torch::Tensor>& parameters);

}  // namespace troupe::model
