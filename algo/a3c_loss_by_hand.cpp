#include "algo/a3c_loss_by_hand.hpp"

#include <algorithm>

#include "algo/policy_rows_by_hand.hpp"

namespace troupe::algo {

namespace {

row_terms terms_of(const a3c_batch_view& in, int i, std::vector<double>& log_probs) {
  const std::size_t w = std::size_t(in.width);
  const float* row = in.policy + std::size_t(i) * w;
  if (in.gaussian) return gaussian_row(row, in.log_std, in.actions + std::size_t(i) * w, in.width);
  return categorical_row(row, in.legal ? in.legal + std::size_t(i) * w : nullptr, in.width, int(in.actions[i]),
                         log_probs);
}

}  // namespace

void a3c_action_logp(const a3c_batch_view& in, a3c_loss_by_hand& out) {
  std::vector<double> log_probs;
  out.logp.resize(std::size_t(in.n));
  for (int i = 0; i < in.n; ++i) out.logp[std::size_t(i)] = float(terms_of(in, i, log_probs).logp);
}

void a3c_loss_and_gradient(const a3c_batch_view& in, double value_coef, double entropy_coef,
                           a3c_loss_by_hand& out) {
  const int n = in.n, w = in.width;
  const double inv_n = 1.0 / double(std::max(1, n));
  out.logp.resize(std::size_t(n));
  out.d_policy.assign(std::size_t(n) * std::size_t(w), 0.0f);
  out.d_values.assign(std::size_t(n), 0.0f);
  out.d_log_std.assign(in.gaussian ? std::size_t(w) : 0, 0.0f);
  std::vector<double> log_probs;
  double policy_sum = 0, value_sum = 0, entropy_sum = 0;
  for (int i = 0; i < n; ++i) {
    const row_terms t = terms_of(in, i, log_probs);
    out.logp[std::size_t(i)] = float(t.logp);
    const double adv = in.advantages[i];
    policy_sum += t.logp * adv;
    const double error = double(in.values[i]) - in.returns[i];
    value_sum += error * error;
    entropy_sum += t.entropy;
    out.d_values[std::size_t(i)] = float(value_coef * inv_n * error);
    // total = -mean(logp A) + value_coef 0.5 mean((R - V)^2) - entropy_coef mean(H)
    const double d_logp = -inv_n * adv;
    const std::size_t at = std::size_t(i) * std::size_t(w);
    if (in.gaussian)
      add_gaussian_gradient(in.policy + at, in.log_std, in.actions + at, w, d_logp, out.d_policy.data() + at,
                            out.d_log_std.data());
    else
      add_categorical_gradient(log_probs, t, int(in.actions[i]), d_logp, -entropy_coef * inv_n,
                               out.d_policy.data() + at, w);
  }
  // The Gaussian's entropy is a constant per row: its mean's gradient is 1 per log-std.
  if (in.gaussian)
    for (int d = 0; d < w; ++d) out.d_log_std[std::size_t(d)] -= float(entropy_coef);
  out.policy = -policy_sum * inv_n;
  out.value = 0.5 * value_sum * inv_n;
  out.entropy = entropy_sum * inv_n;
  out.total = out.policy + value_coef * out.value - entropy_coef * out.entropy;
}

}  // namespace troupe::algo
