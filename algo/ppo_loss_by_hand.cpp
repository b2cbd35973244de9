#include "algo/ppo_loss_by_hand.hpp"

#include <algorithm>
#include <cmath>

#include "algo/policy_rows_by_hand.hpp"

namespace troupe::algo {

void ppo_loss_and_gradient(const ppo_minibatch_view& in, const ppo_loss_settings& s, ppo_loss_by_hand& out) {
  const int n = in.n, w = in.width;
  const double inv_n = 1.0 / double(std::max(1, n));
  out.d_policy.assign(std::size_t(n) * std::size_t(w), 0.0f);
  out.d_values.assign(std::size_t(n), 0.0f);
  out.d_log_std.assign(in.gaussian ? std::size_t(w) : 0, 0.0f);

  // The advantages, normalised over the minibatch (standard deviation with
  // n - 1, as LibTorch's std_mean).
  double mean = 0, sd = 0;
  if (s.normalize_advantages && n > 1) {
    for (int i = 0; i < n; ++i) mean += in.advantages[i];
    mean /= n;
    for (int i = 0; i < n; ++i) sd += (in.advantages[i] - mean) * (in.advantages[i] - mean);
    sd = std::sqrt(sd / (n - 1));
  }
  const bool normalise = s.normalize_advantages && n > 1;

  std::vector<double> log_probs;
  double policy_sum = 0, value_sum = 0, entropy_sum = 0, kl = 0, clipped_count = 0;
  for (int i = 0; i < n; ++i) {
    const float* row = in.policy + std::size_t(i) * std::size_t(w);
    float* d_row = out.d_policy.data() + std::size_t(i) * std::size_t(w);
    const float* gaussian_action = in.gaussian ? in.actions + std::size_t(i) * std::size_t(w) : nullptr;
    const row_terms t =
        in.gaussian ? gaussian_row(row, in.log_std, gaussian_action, w)
                    : categorical_row(row, in.legal ? in.legal + std::size_t(i) * std::size_t(w) : nullptr, w,
                                      int(in.actions[i]), log_probs);

    // The clipped surrogate: d/d ratio is A where the unclipped term is the
    // smaller (half at a tie), plus A where the clipped term is the smaller
    // and the ratio inside the clip (half at a tie).
    const float adv = normalise ? float((in.advantages[i] - mean) / (sd + 1e-8)) : in.advantages[i];
    const float ratio = float(std::exp(double(float(t.logp) - in.behaviour_logp[i])));
    const float clamped = std::clamp(ratio, float(1.0 - s.clip), float(1.0 + s.clip));
    const float unclipped = ratio * adv, clipped = clamped * adv;
    const bool inside = ratio >= float(1.0 - s.clip) && ratio <= float(1.0 + s.clip);
    const double share_unclipped = unclipped < clipped ? 1 : unclipped == clipped ? 0.5 : 0;
    const double share_clipped = (clipped < unclipped ? 1 : clipped == unclipped ? 0.5 : 0) * (inside ? 1 : 0);
    policy_sum += std::min(unclipped, clipped);
    const double d_logp = -inv_n * (share_unclipped + share_clipped) * adv * ratio;

    // The value loss: 0.5 mean((V - R)^2), or its clipped form's max.
    const double v = in.values[i], target = in.returns[i];
    double d_v = 0;
    if (s.value_clip > 0) {
      const double old = in.old_values[i];
      const double change = std::clamp(v - old, -s.value_clip, s.value_clip);
      const double v_clipped = old + change;
      const double a = (v - target) * (v - target), b = (v_clipped - target) * (v_clipped - target);
      const bool change_inside = v - old >= -s.value_clip && v - old <= s.value_clip;
      value_sum += std::max(a, b);
      d_v = 0.5 * inv_n *
            ((a > b ? 1 : a == b ? 0.5 : 0) * 2 * (v - target) +
             (b > a ? 1 : a == b ? 0.5 : 0) * 2 * (v_clipped - target) * (change_inside ? 1 : 0));
    } else {
      value_sum += (v - target) * (v - target);
      d_v = inv_n * (v - target);
    }
    out.d_values[std::size_t(i)] = float(s.value_coef * d_v);
    entropy_sum += t.entropy;

    // Through the distribution: d logp and d entropy by the row's outputs.
    if (in.gaussian)
      add_gaussian_gradient(row, in.log_std, gaussian_action, w, d_logp, d_row, out.d_log_std.data());
    else
      add_categorical_gradient(log_probs, t, int(in.actions[i]), d_logp, -s.entropy_coef * inv_n, d_row, w);

    const double r = ratio;
    kl += (r - 1) - std::log(r);
    clipped_count += std::abs(r - 1) > s.clip ? 1 : 0;
  }
  // The Gaussian's entropy is a constant per row: its mean's gradient is 1 per log-std.
  if (in.gaussian)
    for (int d = 0; d < w; ++d) out.d_log_std[std::size_t(d)] -= float(s.entropy_coef);

  out.policy = -policy_sum * inv_n;
  out.value = 0.5 * value_sum * inv_n;
  out.entropy = entropy_sum * inv_n;
  out.total = out.policy + s.value_coef * out.value - s.entropy_coef * out.entropy;
  out.approx_kl = kl * inv_n;
  out.clip_fraction = clipped_count * inv_n;
}

}  // namespace troupe::algo
