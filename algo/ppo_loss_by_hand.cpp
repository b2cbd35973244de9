#include "algo/ppo_loss_by_hand.hpp"

#include <algorithm>
#include <cmath>

#include "algo/action_mask.hpp"

namespace troupe::algo {

namespace {

// A row's log-probability of its action, and its policy's entropy.
struct row_terms {
  double logp = 0, entropy = 0;
};

// log_softmax over the legal logits (a masked one is algo::masked_logit,
// probability 0, no gradient); leaves every logit's log-probability in
// `log_probs` for the gradient.
row_terms categorical_row(const float* logits, const std::uint8_t* legal, int width, int action,
                          std::vector<double>& log_probs) {
  log_probs.resize(std::size_t(width));
  float top = -INFINITY;
  for (int j = 0; j < width; ++j) {
    const float z = (legal && !legal[j]) ? masked_logit : logits[j];
    log_probs[std::size_t(j)] = z;
    top = std::max(top, z);
  }
  double sum = 0;
  for (int j = 0; j < width; ++j) sum += std::exp(log_probs[std::size_t(j)] - top);
  const double log_sum = top + std::log(sum);
  row_terms t;
  for (int j = 0; j < width; ++j) {
    double& lp = log_probs[std::size_t(j)];
    lp -= log_sum;
    t.entropy -= std::exp(lp) * lp;
  }
  t.logp = log_probs[std::size_t(action)];
  return t;
}

}  // namespace

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

  const double log_sqrt_2pi = 0.5 * std::log(2.0 * M_PI);
  double gaussian_entropy = 0;
  if (in.gaussian)
    for (int d = 0; d < w; ++d) gaussian_entropy += in.log_std[d] + 0.5 + log_sqrt_2pi;

  std::vector<double> log_probs;
  double policy_sum = 0, value_sum = 0, entropy_sum = 0, kl = 0, clipped_count = 0;
  for (int i = 0; i < n; ++i) {
    const float* row = in.policy + std::size_t(i) * std::size_t(w);
    float* d_row = out.d_policy.data() + std::size_t(i) * std::size_t(w);
    row_terms t;
    if (in.gaussian) {
      const float* a = in.actions + std::size_t(i) * std::size_t(w);
      for (int d = 0; d < w; ++d) {
        const double z = (double(a[d]) - row[d]) * std::exp(-double(in.log_std[d]));
        t.logp += -0.5 * z * z - in.log_std[d] - log_sqrt_2pi;
      }
      t.entropy = gaussian_entropy;
    } else {
      t = categorical_row(row, in.legal ? in.legal + std::size_t(i) * std::size_t(w) : nullptr, w,
                          int(in.actions[i]), log_probs);
    }

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
    if (in.gaussian) {
      const float* a = in.actions + std::size_t(i) * std::size_t(w);
      for (int d = 0; d < w; ++d) {
        const double inv_var = std::exp(-2.0 * in.log_std[d]);
        const double diff = double(a[d]) - row[d];
        d_row[d] = float(d_logp * diff * inv_var);
        out.d_log_std[std::size_t(d)] += float(d_logp * (diff * diff * inv_var - 1.0));
      }
    } else {
      const double d_entropy = -s.entropy_coef * inv_n;
      const int action = int(in.actions[i]);
      for (int j = 0; j < w; ++j) {
        const double lp = log_probs[std::size_t(j)], p = std::exp(lp);
        d_row[j] = float(d_logp * ((j == action ? 1.0 : 0.0) - p) + d_entropy * (-p * (lp + t.entropy)));
      }
    }

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
