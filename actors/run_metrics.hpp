#pragma once
// A run's counters and the text they are shown as: the progress line and the
// rows of metrics.csv. Plain C++, fed by the metrics actor.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run/run_config.hpp"
#include "algo/trainer.hpp"

namespace troupe::actors {

class run_metrics {
 public:
  explicit run_metrics(int window = run::stop_config{}.window) : window_(window) {}

  // Continues the counters of a resumed run.
  void restore(std::int64_t env_steps, std::int64_t episodes, std::int64_t updates,
               std::int64_t samples_trained) {
    env_steps_ = env_steps, episodes_ = episodes, updates_ = updates;
    samples_trained_ = samples_trained;
  }
  void add_env_steps(std::int64_t steps) { env_steps_ += steps; }
  void add_episode(float episode_return, std::int32_t length);
  void add_update(const algo::train_result& r);

  std::int64_t env_steps() const { return env_steps_; }
  std::int64_t episodes() const { return episodes_; }
  std::int64_t updates() const { return updates_; }
  std::int64_t samples_trained() const { return samples_trained_; }
  // Mean return of the last `window` episodes (of all, while fewer ran).
  double mean_return() const;
  // Mean length of the same episodes.
  double mean_length() const;
  // The learning rate of the latest batch that trained (0 before any).
  double lr() const { return lr_; }
  bool window_full() const { return int(recent_.size()) >= window_; }
  double mean_policy_lag() const;
  std::uint64_t max_policy_lag() const { return lag_max_; }
  // The means of the batches' loss terms since the previous call (zeros
  // when no batch trained), and a fresh period.
  struct losses {
    double policy = 0, value = 0, entropy = 0, approx_kl = 0, clip_fraction = 0;
    std::int64_t batches = 0;  // that trained in the period: none, and the means are no news
  };
  losses take_period_losses();

 private:
  int window_;
  std::deque<float> recent_;
  std::deque<std::int32_t> recent_lengths_;
  double lr_ = 0;
  std::int64_t env_steps_ = 0, episodes_ = 0, updates_ = 0, samples_trained_ = 0;
  std::uint64_t lag_sum_ = 0, lag_max_ = 0, lag_samples_ = 0;
  losses period_sums_;
  std::int64_t period_batches_ = 0;
};

// One moment of a run, as the progress line and metrics.csv show it.
struct progress_row {
  double wall_seconds = 0;
  std::int64_t env_steps = 0;
  double env_steps_per_s = 0;
  std::int64_t episodes = 0;
  double mean_return = 0;
  double mean_length = 0;  // of the same window's episodes (not in metrics.csv)
  double mean_predict_batch = 0;
  std::int64_t updates = 0;
  double policy_lag_mean = 0;
  std::uint64_t policy_lag_max = 0;
  double remaining_seconds = -1;  // < 0: unknown
  double lr = 0;                  // the latest batch's (not in metrics.csv)
  run_metrics::losses losses;     // of the batches trained since the previous row
  // Self-play (selfplay.enabled), else absent: the learner's Elo rating,
  // its mean score in its recent games against snapshots (< 0: none yet),
  // the snapshots in the pool.
  struct league_figures {
    double elo = 0;
    double recent_score = -1;
    int snapshots = 0;
  };
  std::optional<league_figures> league;
  // pbt: the member's hyperparameters at the row (TensorBoard's hyperparams/KEY).
  std::map<std::string, double> hyperparams;
};

std::string format_progress_line(const progress_row& row);
// With `league`, self-play's columns follow the others (elo, score_vs_pool, snapshots).
std::string csv_header(bool league = false);
std::string csv_row(const progress_row& row);
// The row as TensorBoard scalars (run/tensorboard_writer.hpp): the losses
// only when a batch trained in the row's period, the episodes' means only
// once an episode ended.
std::vector<std::pair<std::string, float>> tensorboard_scalars(const progress_row& row);

}  // namespace troupe::actors
