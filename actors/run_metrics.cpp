#include "actors/run_metrics.hpp"

#include <algorithm>
#include <cstdio>

namespace troupe::actors {

void run_metrics::add_episode(float episode_return) {
  ++episodes_;
  recent_.push_back(episode_return);
  if (int(recent_.size()) > window_) recent_.pop_front();
}

void run_metrics::add_update(const algo::train_result& r) {
  updates_ += r.updates;
  // A sample counts once, however many updates (PPO's epochs) trained it.
  if (r.applied) samples_trained_ += r.samples;
  if (r.updates > 0) {
    period_sums_.policy += r.policy_loss;
    period_sums_.value += r.value_loss;
    period_sums_.entropy += r.entropy;
    period_sums_.approx_kl += r.approx_kl;
    period_sums_.clip_fraction += r.clip_fraction;
    ++period_batches_;
  }
  lag_sum_ += r.lag_sum;
  lag_samples_ += r.samples;
  lag_max_ = std::max(lag_max_, r.lag_max);
}

double run_metrics::mean_return() const {
  // Summed afresh each time: a running sum drifts over millions of episodes.
  if (recent_.empty()) return 0.0;
  double sum = 0.0;
  for (float r : recent_) sum += r;
  return sum / recent_.size();
}

run_metrics::losses run_metrics::take_period_losses() {
  losses mean;
  if (period_batches_ > 0) {
    const double n = double(period_batches_);
    mean = {period_sums_.policy / n, period_sums_.value / n, period_sums_.entropy / n,
            period_sums_.approx_kl / n, period_sums_.clip_fraction / n};
  }
  period_sums_ = {};
  period_batches_ = 0;
  return mean;
}

double run_metrics::mean_policy_lag() const {
  return lag_samples_ ? double(lag_sum_) / lag_samples_ : 0.0;
}

std::string format_progress_line(const progress_row& r) {
  char eta[32] = "?";
  if (r.remaining_seconds >= 0) std::snprintf(eta, sizeof eta, "%.0fs", r.remaining_seconds);
  char line[256];
  std::snprintf(line, sizeof line,
                "[%7.1fs] steps %10lld  %8.0f/s | episodes %7lld  return %7.1f | "
                "batch %6.1f | updates %7lld  lag %5.2f (max %llu) | left %s",
                r.wall_seconds, static_cast<long long>(r.env_steps), r.env_steps_per_s,
                static_cast<long long>(r.episodes), r.mean_return, r.mean_predict_batch,
                static_cast<long long>(r.updates), r.policy_lag_mean,
                static_cast<unsigned long long>(r.policy_lag_max), eta);
  return line;
}

std::string csv_header() {
  return "wall_seconds,env_steps,env_steps_per_s,episodes,mean_return,mean_predict_batch,"
         "updates,policy_lag_mean,policy_lag_max,policy_loss,value_loss,entropy,approx_kl,"
         "clip_fraction";
}

std::string csv_row(const progress_row& r) {
  char line[512];
  std::snprintf(line, sizeof line, "%.3f,%lld,%.1f,%lld,%.3f,%.3f,%lld,%.4f,%llu,%.6g,%.6g,%.6g,%.6g,%.6g",
                r.wall_seconds, static_cast<long long>(r.env_steps), r.env_steps_per_s,
                static_cast<long long>(r.episodes), r.mean_return, r.mean_predict_batch,
                static_cast<long long>(r.updates), r.policy_lag_mean,
                static_cast<unsigned long long>(r.policy_lag_max), r.losses.policy, r.losses.value,
                r.losses.entropy, r.losses.approx_kl, r.losses.clip_fraction);
  return line;
}

}  // namespace troupe::actors
