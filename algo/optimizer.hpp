#pragma once
// The optimiser an algo_config names, over a network's parameters.
#include <memory>
#include <vector>

#include <torch/torch.h>

#include "algo/algo_config.hpp"

namespace troupe::algo {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(
    const algo_config& config, const std::vector<torch::Tensor>& parameters);

}  // namespace troupe::algo
