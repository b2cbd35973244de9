#pragma once
// LibTorch's RMSprop step (torch::optim::RMSprop, without momentum,
// centring or weight decay: what A3C's configs use) over one contiguous CPU
// tensor, written as one loop: LibTorch's takes four tensor operations,
// each a pass over the parameters and a fixed cost that dominates for small
// networks. The running average of squared gradients and the step count
// are the optimiser's own state, so checkpoints and a later step by
// LibTorch see no difference.
#include <torch/torch.h>

namespace troupe::model {

// Steps `optimizer` over `param` (its only parameter) with `gradient` by
// hand and returns true; returns false, touching nothing, when this cannot
// (not an RMSprop, its options need what the loop leaves out, no state yet
// (the first step makes it), or tensors off the CPU or not contiguous).
bool rmsprop_step_by_hand(torch::optim::Optimizer& optimizer, torch::Tensor& param, const torch::Tensor& gradient);

}  // namespace troupe::model
