#include "model/optimizer.hpp"

#include <stdexcept>

namespace troupe::model {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(
    const optimizer_settings& s, const std::vector<torch::Tensor>& parameters) {
  if (s.name == "rmsprop")
    return std::make_unique<torch::optim::RMSprop>(
        parameters, torch::optim::RMSpropOptions(s.lr).alpha(s.rmsprop_alpha).eps(s.eps));
  if (s.name == "adam")
    return std::make_unique<torch::optim::Adam>(parameters,
                                                torch::optim::AdamOptions(s.lr).eps(s.eps));
  if (s.name == "sgd")
    return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(s.lr));
  throw std::invalid_argument("unknown optimizer '" + s.name + "' (expected rmsprop, adam or sgd)");
}

}  // namespace troupe::model
