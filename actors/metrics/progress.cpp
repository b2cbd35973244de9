// The progress line, metrics.csv and TensorBoard: a row of the run's
// figures now and then (by time, or by env steps in a deterministic run),
// at the stop, and at the end.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "actors/metrics/metrics_state.hpp"

namespace troupe::actors::metrics_parts {

// Whole lines, each in one write: the metrics actors of several policies
// print side by side, and a line sent in pieces interleaves with another's.
void print_line(const std::string& line) { std::cout << line + "\n" << std::flush; }

// A number as std::cout writes it (6 significant digits).
std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// metrics.csv (continued by a resumed run, begun anew by a fresh one) and
// TensorBoard's event file, as the config asks.
void open_logs(metrics_state& st) {
  const metrics_config& config = st.config;
  if (!config.csv_path.empty()) {
    std::ifstream existing(config.csv_path);
    const bool resumed = config.resumed.segment > 0 || config.resumed.env_steps > 0;
    const bool append =
        resumed && existing.good() && existing.peek() != std::ifstream::traits_type::eof();
    st.csv.open(config.csv_path, append ? std::ios::app : std::ios::trunc);
    if (!append) st.csv << csv_header(bool(config.league)) << '\n';
  }
  if (!config.tensorboard_dir.empty()) {
    try {
      st.tensorboard = std::make_unique<run::tensorboard_writer>(config.tensorboard_dir);
    } catch (const std::runtime_error& e) {  // the run goes on without them
      std::cerr << "troupe: warning: no TensorBoard events: " << e.what() << std::endl;
    }
  }
}

std::vector<node_stats> node_table(const metrics_state& st) {
  std::vector<node_stats> table;
  for (const auto& [name, n] : st.nodes) {
    node_stats s;
    s.node = name;
    s.agents = static_cast<std::int32_t>(n.agents.size());
    s.env_steps = n.env_steps;
    s.env_steps_per_s = n.env_steps_per_s;
    s.predict_round_trip_ms = n.predicts ? 1000.0 * n.predict_seconds / n.predicts : 0.0;
    // The learner's node first, then workers by name.
    table.insert(name == learner_node ? table.begin() : table.end(), s);
  }
  return table;
}

// This moment's figures, for a progress line and a metrics.csv row (all
// but the owner's batching figure). Starts a new period for the rates.
progress_row take_row(metrics_pointer self) {
  auto& st = self->state;
  progress_row row;
  row.wall_seconds = run_seconds(st.config);
  row.env_steps = st.metrics.env_steps();
  const double dt = row.wall_seconds - st.last_seconds;
  row.env_steps_per_s = dt > 0 ? (row.env_steps - st.last_steps) / dt : 0;
  st.last_seconds = row.wall_seconds;
  st.last_steps = row.env_steps;
  st.row_taken = true;
  st.last_row_episodes = st.metrics.episodes();
  row.episodes = st.metrics.episodes();
  row.mean_return = st.metrics.mean_return();
  row.updates = st.metrics.updates();
  row.policy_lag_mean = st.metrics.mean_policy_lag();
  row.policy_lag_max = st.metrics.max_policy_lag();
  row.mean_length = st.metrics.mean_length();
  row.lr = st.metrics.lr();
  row.losses = st.metrics.take_period_losses();
  row.hyperparams = st.hyperparams;
  if (const auto& league = st.config.league)
    row.league = progress_row::league_figures{league->learner_rating(), league->recent_score(),
                                              int(league->pool().size())};
  const auto& stop = st.config.stop;
  double left = -1;
  // run.stop.wall_seconds counts this process's time (the coordinator's
  // clock), a resumed run's earlier time not included.
  if (stop.wall_seconds > 0)
    left = std::max(0.0, stop.wall_seconds - (row.wall_seconds - st.config.resumed.wall_seconds));
  if (stop.env_steps > 0 && row.env_steps_per_s > 0) {
    // Several policies: each one's share of the steps left, at its own rate.
    const double share = st.config.run_env_steps
                             ? double(row.env_steps) / std::max<std::int64_t>(1, run_env_steps(st))
                             : 1.0;
    const double by_steps =
        std::max<double>(0, stop.env_steps - run_env_steps(st)) * share / row.env_steps_per_s;
    left = left < 0 ? by_steps : std::min(left, by_steps);
  }
  row.remaining_seconds = left;
  for (auto& [name, n] : st.nodes) {
    n.env_steps_per_s = dt > 0 ? (n.env_steps - n.steps_at_last_tick) / dt : 0;
    n.steps_at_last_tick = n.env_steps;
  }
  return row;
}

// Prints the progress line (and the nodes' lines) and appends the
// metrics.csv row, with the owner's batching counters as of now.
void write_row(metrics_pointer self, progress_row row, const batch_stats& batching) {
  auto& st = self->state;
  st.last_batching = batching;
  if (row.losses.batches > 0) st.last_losses = row.losses;
  row.mean_predict_batch =
      batching.forward_passes ? double(batching.observations) / batching.forward_passes : 0;
  if (st.config.log.progress) print_line(st.config.label + format_progress_line(row));
  const bool cluster = st.nodes.size() > 1 || (st.nodes.size() == 1 && !st.nodes.count(learner_node));
  if (cluster && st.config.log.progress)
    for (const auto& s : node_table(st)) {
      std::printf("  node %-16s %3d agents %10.0f env steps/s  predict round trip %.2f ms\n",
                  s.node.c_str(), s.agents, s.env_steps_per_s, s.predict_round_trip_ms);
      std::fflush(stdout);
    }
  if (st.csv.is_open()) {
    st.csv << csv_row(row) << '\n' << std::flush;
    if (!st.csv) {  // a full disk, say: said once, and the run goes on
      std::cerr << "troupe: warning: cannot append to " << st.config.csv_path << " ("
                << std::strerror(errno) << "); later rows are not written" << std::endl;
      st.csv.close();
    }
  }
  if (st.tensorboard && !st.tensorboard->write(row.env_steps, tensorboard_scalars(row))) {
    std::cerr << "troupe: warning: cannot append to " << st.tensorboard->path() << " (" << std::strerror(errno)
              << "); later TensorBoard events are not written" << std::endl;
    st.tensorboard.reset();
  }
}

// A row of this moment's figures, written once the owner has said its
// batching counters.
void write_row_now(metrics_pointer self) {
  const progress_row row = take_row(self);
  self->request(self->state.owner, owner_stats_timeout, stats_atom_v)
      .then([=](const batch_stats& b) { write_row(self, row, b); },
            [=](caf::error&) { write_row(self, row, self->state.last_batching); });
}

// Rows by env steps: one when the count passes the next multiple of
// log.progress_env_steps.
void write_rows_by_steps(metrics_pointer self) {
  auto& st = self->state;
  if (st.row_steps <= 0 || st.stop_sent || st.metrics.env_steps() < st.next_row_at) return;
  st.next_row_at = (st.metrics.env_steps() / st.row_steps + 1) * st.row_steps;
  write_row_now(self);
}

// Writes the row taken at the stop, if it waits still, with `batching`.
void write_stop_row(metrics_pointer self, const batch_stats& batching) {
  auto& st = self->state;
  if (!st.stop_row) return;
  write_row(self, *st.stop_row, batching);
  st.stop_row.reset();
}

// The curve ends at the figures the summary reports: a last row unless one
// is there at these figures already.
void write_final_row(metrics_pointer self) {
  auto& st = self->state;
  write_stop_row(self, st.last_batching);
  if (st.row_taken && st.metrics.env_steps() == st.last_steps && st.metrics.episodes() == st.last_row_episodes)
    return;
  progress_row row = take_row(self);
  // No batch trained since the last row (the learners had drained): the
  // row keeps the last losses, so the curve's last point has them.
  if (row.losses.batches == 0) row.losses = st.last_losses;
  write_row(self, row, st.last_batching);
}

}  // namespace troupe::actors::metrics_parts
