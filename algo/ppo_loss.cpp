#include "algo/ppo_loss.hpp"

#include <algorithm>
#include <cmath>

namespace troupe::algo {

ppo_loss_terms ppo_loss(const torch::Tensor& action_logp, const torch::Tensor& entropy,
                        const torch::Tensor& values, const torch::Tensor& behaviour_logp,
                        const torch::Tensor& old_values, const torch::Tensor& advantages,
                        const torch::Tensor& returns, const ppo_loss_settings& s) {
  torch::Tensor adv = advantages.detach();
  if (s.normalize_advantages && adv.numel() > 1) {
    const auto [std, mean] = torch::std_mean(adv);
    adv = (adv - mean) / (std + 1e-8);
  }
  const torch::Tensor log_ratio = action_logp - behaviour_logp.detach();
  const torch::Tensor ratio = log_ratio.exp();
  ppo_loss_terms t;
  // The pessimistic bound: where the ratio has moved past the clip in the
  // direction the advantage pulls, the clipped term is the smaller and its
  // gradient is zero.
  const torch::Tensor unclipped = ratio * adv;
  const torch::Tensor clipped = ratio.clamp(1.0 - s.clip, 1.0 + s.clip) * adv;
  t.policy = -torch::min(unclipped, clipped).mean();
  const torch::Tensor target = returns.detach();
  if (s.value_clip > 0) {
    const torch::Tensor old = old_values.detach();
    const torch::Tensor v_clipped = old + (values - old).clamp(-s.value_clip, s.value_clip);
    t.value = 0.5 * torch::max((values - target).pow(2), (v_clipped - target).pow(2)).mean();
  } else {
    t.value = 0.5 * torch::mse_loss(values, target);
  }
  t.entropy = entropy.mean();
  t.total = t.policy.add(t.value, s.value_coef).sub(t.entropy, s.entropy_coef);
  // The statistics, in plain loops over the host's copy of the ratios (a
  // minibatch of them; a handful of tensor operations would cost more).
  const torch::Tensor r = ratio.detach().to(torch::kCPU, torch::kDouble).contiguous();
  const double* x = r.data_ptr<double>();
  double kl = 0, clipped_count = 0;
  for (std::int64_t i = 0; i < r.numel(); ++i) {
    kl += (x[i] - 1) - std::log(x[i]);
    clipped_count += std::abs(x[i] - 1) > s.clip ? 1 : 0;
  }
  const double n = double(std::max<std::int64_t>(1, r.numel()));
  t.approx_kl = kl / n;
  t.clip_fraction = clipped_count / n;
  return t;
}

}  // namespace troupe::algo
