#include "model/a3c_loss.hpp"

namespace troupe::model {

a3c_loss_terms a3c_loss(const torch::Tensor& logits, const torch::Tensor& values,
                        const torch::Tensor& actions, const torch::Tensor& advantages,
                        const torch::Tensor& returns, double value_coef,
                        double entropy_coef) {
  const torch::Tensor log_probs = torch::log_softmax(logits, -1);
  const torch::Tensor action_logp = log_probs.gather(-1, actions.unsqueeze(-1)).squeeze(-1);
  a3c_loss_terms terms;
  terms.policy = -(action_logp * advantages.detach()).mean();
  terms.value = 0.5 * (returns.detach() - values).pow(2).mean();
  terms.entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
  terms.total = terms.policy + value_coef * terms.value - entropy_coef * terms.entropy;
  return terms;
}

}  // namespace troupe::model
