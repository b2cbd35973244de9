#pragma once
// The metrics actor's state, and the pieces its behaviour (actors/
// metrics_actor.cpp) is made of, each in a file named for what it does:
//   progress.cpp     the progress line, metrics.csv and TensorBoard rows
//   stop_rules.cpp   run.stop's rules, and the stop they send
//   evaluations.cpp  the evaluator's two handshakes: confirming a solve,
//                    and the best checkpoint (checkpoint.best)
// Only the metrics actor's files include this.
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <caf/all.hpp>

#include "actors/metrics_actor.hpp"
#include "actors/round_gather.hpp"
#include "actors/run_metrics.hpp"
#include "run/tensorboard_writer.hpp"

namespace troupe::actors::metrics_parts {

// One node's counters: the learner's own agents, or one cluster worker's.
struct node_tally {
  std::set<std::uint32_t> agents;
  std::int64_t env_steps = 0;
  std::int64_t steps_at_last_tick = 0;
  double env_steps_per_s = 0;
  double predict_seconds = 0;
  std::int64_t predicts = 0;
};

constexpr const char* learner_node = "learner";

// The model-owner's batching counters, for a progress row.
constexpr auto owner_stats_timeout = std::chrono::seconds(5);

struct metrics_state {
  metrics_config config;
  std::map<std::string, double> hyperparams;  // pbt: the member's, as the driver last sent them
  model_owner_actor owner;
  run_control coordinator;
  run_metrics metrics;
  std::ofstream csv;
  std::unique_ptr<run::tensorboard_writer> tensorboard;  // null: none, or it failed
  bool stop_sent = false;
  bool evaluating = false;              // a confirmation or a best evaluation is under way
  std::int64_t next_confirm_at = 0;     // episodes: a failed confirmation waits for a new window
  double triggered_mean_return = 0;     // the window's mean when the target was last reached
  std::int64_t next_best_at = 0;        // episodes: a best evaluation waits for a new window
  std::int64_t evaluations = 0;         // of both kinds, for their seeds
  double evaluation_seconds = 0;        // this segment's, of both kinds
  std::int64_t best_episodes = 0;       // this segment's best evaluations' episodes
  std::optional<double> best_return;    // the best evaluation of this segment
  metrics_totals totals;
  std::map<std::string, node_tally> nodes;
  // At the previous tick, for rates.
  double last_seconds = 0;
  std::int64_t last_steps = 0;
  bool row_taken = false;  // this segment has taken a row (at last_steps)
  std::int64_t last_row_episodes = 0;  // the episodes of the latest row taken
  run_metrics::losses last_losses;     // of the latest row written with a trained batch
  std::int64_t foreign_refused = 0;
  batch_stats last_batching;  // the owner's counters at the latest tick
  std::optional<progress_row> stop_row;  // taken at the stop, written with the owner's counters
  std::int64_t row_steps = 0;    // rows every this many env steps; 0: by time
  std::int64_t next_row_at = 0;  // env steps
  // A deterministic run's reports wait here, by (rollout, agent), until their
  // round is whole; the learner's questions about rounds wait beside them.
  round_gather<episode_report> early;
  std::vector<std::pair<std::uint64_t, caf::typed_response_promise<bool>>> round_questions;
  static inline const char* name = "metrics";
};

// Its own timer (a progress line is due) is no part of its public protocol.
using metrics_impl = metrics_actor::extend<caf::reacts_to<caf::tick_atom>>;
using metrics_pointer = metrics_impl::stateful_pointer<metrics_state>;

// This segment's time alone (an evaluation's share is of it).
inline double segment_seconds(const metrics_config& c) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
}

// The run's time: earlier segments' and this one's.
inline double run_seconds(const metrics_config& c) { return c.resumed.wall_seconds + segment_seconds(c); }

// The steps run.stop.env_steps counts: every policy's.
inline std::int64_t run_env_steps(const metrics_state& st) {
  return st.config.run_env_steps ? st.config.run_env_steps->load() : st.metrics.env_steps();
}

// Answers the learner's questions about deterministic rounds that can be
// answered now (metrics_actor.cpp).
void answer_round_questions(metrics_pointer self);

// progress.cpp
void print_line(const std::string& line);
std::string format_number(double value);
void open_logs(metrics_state& st);
std::vector<node_stats> node_table(const metrics_state& st);
progress_row take_row(metrics_pointer self);
void write_row(metrics_pointer self, progress_row row, const batch_stats& batching);
void write_row_now(metrics_pointer self);
void write_rows_by_steps(metrics_pointer self);
void write_stop_row(metrics_pointer self, const batch_stats& batching);
void write_final_row(metrics_pointer self);

// stop_rules.cpp
void request_stop(metrics_pointer self, run::stop_reason reason);
void mark_solved(metrics_pointer self);
void check_stop(metrics_pointer self);

// evaluations.cpp
void confirm(metrics_pointer self);
void check_best(metrics_pointer self);

}  // namespace troupe::actors::metrics_parts
