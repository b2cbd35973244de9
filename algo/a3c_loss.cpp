#include "algo/a3c_loss.hpp"

namespace troupe::algo {

a3c_loss_terms a3c_loss(const torch::Tensor& action_logp, const torch::Tensor& entropy,
                        const torch::Tensor& values, const torch::Tensor& advantages,
                        const torch::Tensor& returns, double value_coef, double entropy_coef) {
  a3c_loss_terms terms;
  terms.policy = -(action_logp * advantages.detach()).mean();
  terms.value = 0.5 * (returns.detach() - values).pow(2).mean();
  terms.entropy = entropy.mean();
  terms.total = terms.policy + value_coef * terms.value - entropy_coef * terms.entropy;
  return terms;
}

}  // namespace troupe::algo
