#include "algo/policy_distribution.hpp"

#include <cmath>

#include "algo/action_mask.hpp"

namespace troupe::algo {

policy_terms categorical_terms(const torch::Tensor& logits, const torch::Tensor& actions,
                               const torch::Tensor& legal) {
  const torch::Tensor log_probs = torch::log_softmax(
      legal.defined() ? logits.masked_fill(legal.logical_not(), masked_logit) : logits, -1);
  return {log_probs.gather(-1, actions.unsqueeze(-1)).squeeze(-1),
          -(log_probs.exp() * log_probs).sum(-1)};
}

policy_terms multi_categorical_terms(const torch::Tensor& logits, const torch::Tensor& actions,
                                     const std::vector<int>& heads, const torch::Tensor& legal) {
  policy_terms sum;
  std::int64_t offset = 0;
  for (size_t j = 0; j < heads.size(); ++j) {
    const policy_terms head = categorical_terms(
        logits.narrow(-1, offset, heads[j]), actions.select(-1, std::int64_t(j)),
        legal.defined() ? legal.narrow(-1, offset, heads[j]) : torch::Tensor());
    sum.logp = sum.logp.defined() ? sum.logp + head.logp : head.logp;
    sum.entropy = sum.entropy.defined() ? sum.entropy + head.entropy : head.entropy;
    offset += heads[j];
  }
  return sum;
}

policy_terms gaussian_terms(const torch::Tensor& mean, const torch::Tensor& log_std,
                            const torch::Tensor& actions) {
  const double log_sqrt_2pi = 0.5 * std::log(2.0 * M_PI);
  const torch::Tensor z = (actions - mean) * torch::exp(-log_std);
  const torch::Tensor logp = (-0.5 * z.pow(2) - log_std - log_sqrt_2pi).sum(-1);
  const torch::Tensor entropy = (log_std + 0.5 + log_sqrt_2pi).sum().expand({mean.size(0)});
  return {logp, entropy};
}

policy_terms hybrid_terms(const torch::Tensor& policy, const torch::Tensor& log_std,
                          const torch::Tensor& actions, const std::vector<int>& heads,
                          const torch::Tensor& legal) {
  std::int64_t logits = 0;
  for (int n : heads) logits += n;
  const auto k = std::int64_t(heads.size());
  const policy_terms discrete = multi_categorical_terms(
      policy.narrow(-1, 0, logits), actions.narrow(-1, 0, k).to(torch::kInt64), heads, legal);
  const policy_terms box = gaussian_terms(policy.narrow(-1, logits, log_std.size(0)), log_std,
                                          actions.narrow(-1, k, log_std.size(0)));
  return {discrete.logp + box.logp, discrete.entropy + box.entropy};
}

}  // namespace troupe::algo
