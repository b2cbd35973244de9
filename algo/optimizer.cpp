#include "algo/optimizer.hpp"

namespace troupe::algo {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(
    const algo_config& c, const std::vector<torch::Tensor>& parameters) {
  switch (c.optimizer) {
    case optimizer_kind::adam:
      return std::make_unique<torch::optim::Adam>(parameters,
                                                  torch::optim::AdamOptions(c.lr).eps(c.optimizer_eps));
    case optimizer_kind::rmsprop:
      break;
  }
  return std::make_unique<torch::optim::RMSprop>(
      parameters,
      torch::optim::RMSpropOptions(c.lr).alpha(c.rmsprop_alpha).eps(c.optimizer_eps));
}

}  // namespace troupe::algo
