#include "actors/run_metrics.hpp"

#include <algorithm>
#include <cstdio>

namespace troupe::actors {

void run_metrics::add_episode(float episode_return, std::int32_t length) {
  ++episodes_;
  recent_.push_back(episode_return);
  recent_lengths_.push_back(length);
  if (int(recent_.size()) > window_) recent_.pop_front();
  if (int(recent_lengths_.size()) > window_) recent_lengths_.pop_front();
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
    lr_ = r.lr;
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

double run_metrics::mean_length() const {
  if (recent_lengths_.empty()) return 0.0;
  double sum = 0.0;
  for (std::int32_t n : recent_lengths_) sum += n;
  return sum / recent_lengths_.size();
}

run_metrics::losses run_metrics::take_period_losses() {
  losses mean;
  if (period_batches_ > 0) {
    const double n = double(period_batches_);
    mean = {period_sums_.policy / n, period_sums_.value / n, period_sums_.entropy / n,
            period_sums_.approx_kl / n, period_sums_.clip_fraction / n, period_batches_};
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
  if (!r.league) return line;
  char league[96];
  std::snprintf(league, sizeof league, " | elo %6.0f  vs pool %s  pool %d", r.league->elo,
                r.league->recent_score < 0 ? "   -" : std::to_string(int(r.league->recent_score * 100 + 0.5)).append("%").c_str(),
                r.league->snapshots);
  return std::string(line) + league;
}

std::string csv_header(bool league) {
  return std::string("wall_seconds,env_steps,env_steps_per_s,episodes,mean_return,mean_predict_batch,"
                     "updates,policy_lag_mean,policy_lag_max,policy_loss,value_loss,entropy,approx_kl,"
                     "clip_fraction") +
         (league ? ",elo,score_vs_pool,snapshots" : "");
}

std::string csv_row(const progress_row& r) {
  char line[512];
  std::snprintf(line, sizeof line, "%.3f,%lld,%.1f,%lld,%.3f,%.3f,%lld,%.4f,%llu,%.6g,%.6g,%.6g,%.6g,%.6g",
                r.wall_seconds, static_cast<long long>(r.env_steps), r.env_steps_per_s,
                static_cast<long long>(r.episodes), r.mean_return, r.mean_predict_batch,
                static_cast<long long>(r.updates), r.policy_lag_mean,
                static_cast<unsigned long long>(r.policy_lag_max), r.losses.policy, r.losses.value,
                r.losses.entropy, r.losses.approx_kl, r.losses.clip_fraction);
  if (!r.league) return line;
  char league[96];
  std::snprintf(league, sizeof league, ",%.1f,%.4f,%d", r.league->elo, r.league->recent_score, r.league->snapshots);
  return std::string(line) + league;
}

std::vector<std::pair<std::string, float>> tensorboard_scalars(const progress_row& r) {
  std::vector<std::pair<std::string, float>> out;
  const auto add = [&out](const char* tag, double v) { out.emplace_back(tag, static_cast<float>(v)); };
  if (r.episodes > 0) {
    add("episode/return_mean", r.mean_return);
    add("episode/length_mean", r.mean_length);
  }
  add("episode/count", double(r.episodes));
  if (r.losses.batches > 0) {
    add("loss/policy", r.losses.policy);
    add("loss/value", r.losses.value);
    add("policy/entropy", r.losses.entropy);
    add("policy/approx_kl", r.losses.approx_kl);
    add("policy/clip_fraction", r.losses.clip_fraction);
    add("train/lr", r.lr);
  }
  add("train/updates", double(r.updates));
  add("train/policy_lag_mean", r.policy_lag_mean);
  add("train/policy_lag_max", double(r.policy_lag_max));
  add("perf/env_steps_per_s", r.env_steps_per_s);
  add("perf/predict_batch_mean", r.mean_predict_batch);
  add("perf/wall_seconds", r.wall_seconds);
  if (r.league) {
    add("selfplay/elo", r.league->elo);
    if (r.league->recent_score >= 0) add("selfplay/score_vs_pool", r.league->recent_score);
    add("selfplay/snapshots", r.league->snapshots);
  }
  for (const auto& [key, value] : r.hyperparams) out.emplace_back("hyperparams/" + key, static_cast<float>(value));
  return out;
}

}  // namespace troupe::actors
