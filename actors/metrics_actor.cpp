#include "actors/metrics_actor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "actors/errors.hpp"
#include "actors/net/network_facing.hpp"
#include "actors/round_gather.hpp"
#include "actors/run_metrics.hpp"
#include "run/tensorboard_writer.hpp"

namespace troupe::actors {

namespace {

// Whole lines, each in one write: the metrics actors of several policies
// print side by side, and a line sent in pieces interleaves with another's.
void print_line(const std::string& line) { std::cout << line + "\n" << std::flush; }

// A number as std::cout writes it (6 significant digits).
std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

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

// A confirmation plays run.stop.confirm_episodes whole episodes: long, but
// not without end.
constexpr auto confirmation_timeout = std::chrono::minutes(10);
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

double run_seconds(const metrics_config& c) {
  return c.resumed.wall_seconds +
         std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
}

// Reports and counts reach the metrics only from actors of this process;
// anything else is refused and counted.
bool from_this_process(metrics_pointer self) {
  if (sender_in_this_process(self->current_sender())) return true;
  ++self->state.foreign_refused;
  return false;
}

progress_row take_row(metrics_pointer self);
void write_row(metrics_pointer self, progress_row row, const batch_stats& batching);
void answer_round_questions(metrics_pointer self);

// Writes the row taken at the stop, if it waits still, with `batching`.
void write_stop_row(metrics_pointer self, const batch_stats& batching) {
  auto& st = self->state;
  if (!st.stop_row) return;
  write_row(self, *st.stop_row, batching);
  st.stop_row.reset();
}

// The row written at the stop makes a run's curve end where the run ended
// (at its target, for a solved run), not up to a progress period before.
// Its figures are taken now; the owner's batching counters follow (a run
// that stops before its first progress row has no earlier ones), or, if
// the coordinator asks for the totals first, the last ones known.
void request_stop(metrics_pointer self, run::stop_reason reason) {
  auto& st = self->state;
  if (st.stop_sent) return;
  st.stop_sent = true;
  caf::anon_send(st.coordinator, stop_request{reason});
  answer_round_questions(self);  // no round trains after the stop
  // A row at these env steps is there already: the curve ends where the
  // run did, and a second row at the same steps would add a point with no
  // new samples (and, mostly, no learner figures: TensorBoard's last event
  // would lack them).
  if (st.row_taken && st.metrics.env_steps() == st.last_steps) return;
  st.stop_row = take_row(self);
  self->request(st.owner, owner_stats_timeout, stats_atom_v)
      .then([=](const batch_stats& b) { write_stop_row(self, b); },
            [=](caf::error&) { write_stop_row(self, self->state.last_batching); });
}

// The steps run.stop.env_steps counts: every policy's.
std::int64_t run_env_steps(const metrics_state& st) {
  return st.config.run_env_steps ? st.config.run_env_steps->load() : st.metrics.env_steps();
}

void mark_solved(metrics_pointer self) {
  auto& st = self->state;
  st.totals.solved = true;
  st.totals.seconds_to_target = run_seconds(st.config);
  st.totals.env_steps_to_target = st.metrics.env_steps();
  st.totals.run_env_steps_to_target = run_env_steps(st);
  request_stop(self, run::stop_reason::solved);
}

double segment_seconds(const metrics_config& c) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
}

// The counters a checkpoint written now (best.pt) carries.
model::checkpoint_meta counters_now(const metrics_state& st) {
  model::checkpoint_meta meta;
  meta.env_steps = st.metrics.env_steps();
  meta.episodes = st.metrics.episodes();
  meta.updates = st.metrics.updates();
  meta.samples_trained = st.metrics.samples_trained();
  meta.wall_seconds = run_seconds(st.config);
  return meta;
}

// An evaluation begins: the next seed, and its time counted.
std::uint64_t begin_evaluation(metrics_state& st) {
  st.evaluating = true;
  return st.config.confirm_seed + std::uint64_t(st.evaluations++);
}

// An evaluation failed to answer (the run is ending).
void evaluation_lost(metrics_pointer self) {
  self->state.evaluating = false;
  answer_round_questions(self);
}

void end_evaluation(metrics_pointer self, double started, const evaluation_report& r) {
  auto& st = self->state;
  st.evaluating = false;
  st.evaluation_seconds += segment_seconds(st.config) - started;
  if (!r.best) return;
  const bool better = !st.best_return || r.return_mean > *st.best_return;
  st.best_return = r.return_mean;
  if (better && st.config.log.progress)
    print_line(st.config.label + "best: version " + std::to_string(r.version) + " scored " +
               format_number(r.return_mean) + " over " + std::to_string(r.episodes) +
               " fresh episodes (checkpoints/best.pt)");
}

// Now and then, within checkpoint.best.time_share of the time: fresh
// episodes of the parameters as they are now, kept as best.pt if they
// score at least as well as every evaluation before.
void check_best(metrics_pointer self) {
  auto& st = self->state;
  const run::best_config& best = st.config.best;
  if (best.episodes <= 0 || !st.config.evaluator || st.evaluating || st.stop_sent ||
      !st.metrics.window_full() || st.metrics.episodes() < st.next_best_at)
    return;
  const double started = segment_seconds(st.config);
  // A deterministic run cannot ask the clock: its share is of the episodes
  // played, an evaluation's episodes against the training's.
  const bool over_share = st.config.deterministic_agents > 0
                              ? double(st.best_episodes + best.episodes) > best.time_share * double(st.metrics.episodes())
                              : st.evaluation_seconds > best.time_share * started;
  if (over_share) return;
  st.best_episodes += best.episodes;
  const std::uint64_t seed = begin_evaluation(st);
  ++st.totals.best_evaluations;
  st.next_best_at = st.metrics.episodes() + st.config.stop.window;
  self->request(st.config.evaluator, confirmation_timeout, best_atom_v, std::int32_t(best.episodes),
                seed, counters_now(st))
      .then(
          [=](const evaluation_report& r) {
            end_evaluation(self, started, r);
            answer_round_questions(self);
          },
          [=](caf::error&) { evaluation_lost(self); });
}

// The window's mean reached the target: asks the evaluator whether the
// current parameters score it too.
void confirm(metrics_pointer self) {
  auto& st = self->state;
  const std::int32_t episodes = st.config.stop.confirm_episodes;
  const std::uint64_t seed = begin_evaluation(st);
  const double started = segment_seconds(st.config);
  ++st.totals.confirmations;
  self->request(st.config.evaluator, confirmation_timeout, evaluate_atom_v, episodes, seed,
                counters_now(st))
      .then(
          [=](const evaluation_report& r) {
            auto& st = self->state;
            end_evaluation(self, started, r);
            st.totals.confirmed_return = r.return_mean;
            st.totals.confirmed_version = r.version;
            const bool passed = r.passed;
            if (st.config.log.progress)
              print_line(st.config.label + "confirming: version " + std::to_string(r.version) + " scored " +
                         format_number(r.return_mean) + " over " + std::to_string(r.episodes) + " fresh episodes" +
                         (passed ? " (solved)" : " (below target; training on)"));
            if (passed)
              mark_solved(self);
            else
              st.next_confirm_at = st.metrics.episodes() + st.config.stop.window;
            answer_round_questions(self);  // after the verdict: a solved run trains no further round
          },
          [=](caf::error&) { evaluation_lost(self); });  // stopped meanwhile: the run is ending
}

void check_stop(metrics_pointer self) {
  auto& st = self->state;
  const auto& stop = st.config.stop;
  if (!st.totals.solved && !st.evaluating && st.metrics.window_full() &&
      st.metrics.episodes() >= st.next_confirm_at &&
      st.metrics.mean_return() >= stop.mean_return) {
    if (stop.confirm_episodes > 0 && st.config.evaluator)
      confirm(self);
    else
      mark_solved(self);
  }
  if (stop.env_steps > 0 && run_env_steps(st) >= stop.env_steps)
    request_stop(self, run::stop_reason::env_steps);
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

// The totals as they are now, with the steps and episodes of reports whose
// round is not whole yet (a checkpoint asks mid-run, and they stay uncounted
// for the rounds; at the end, a run stopped mid-round has such reports).
const metrics_totals& current_totals(metrics_pointer self) {
  auto& st = self->state;
  st.totals.env_steps = st.metrics.env_steps();
  st.totals.episodes = st.metrics.episodes();
  st.early.for_each([&](const episode_report& report) {
    st.totals.env_steps += report.env_steps;
    st.totals.episodes += std::int64_t(report.returns.size());
  });
  st.totals.final_mean_return = st.metrics.mean_return();
  st.totals.updates = st.metrics.updates();
  st.totals.samples_trained = st.metrics.samples_trained();
  st.totals.mean_policy_lag = st.metrics.mean_policy_lag();
  st.totals.max_policy_lag = st.metrics.max_policy_lag();
  st.totals.nodes = node_table(st);
  st.totals.foreign_refused = st.foreign_refused;
  return st.totals;
}

void count_report(metrics_pointer self, const episode_report& report) {
  auto& st = self->state;
  auto& node = st.nodes[report.node.empty() ? learner_node : report.node];
  node.agents.insert(report.agent_id);
  node.env_steps += report.env_steps;
  node.predict_seconds += report.predict_seconds;
  node.predicts += report.predicts;
  st.metrics.add_env_steps(report.env_steps);
  if (st.config.run_env_steps) *st.config.run_env_steps += report.env_steps;
  for (size_t i = 0; i < report.returns.size(); ++i)
    st.metrics.add_episode(report.returns[i], i < report.lengths.size() ? report.lengths[i] : 0);
  check_stop(self);
  check_best(self);
  write_rows_by_steps(self);
}

// A deterministic run: counts each round whose reports have all come, in
// agent order.
void count_whole_rounds(metrics_pointer self) {
  auto& st = self->state;
  while (st.early.next_is_whole())
    for (const episode_report& report : st.early.take_next()) count_report(self, report);
  answer_round_questions(self);
}

// Answers the learner's questions that can be answered now.
void answer_round_questions(metrics_pointer self) {
  auto& st = self->state;
  auto& questions = st.round_questions;
  for (auto q = questions.begin(); q != questions.end();) {
    if (st.stop_sent) {
      q->second.deliver(false);
    } else if (q->first < st.early.rounds_taken() && !st.evaluating) {
      q->second.deliver(true);
    } else {
      ++q;
      continue;
    }
    q = questions.erase(q);
  }
}

metrics_impl::behavior_type metrics(metrics_pointer self, metrics_config config,
                                    model_owner_actor owner, run_control coordinator) {
  auto& st = self->state;
  st.config = config;
  st.owner = std::move(owner);
  st.coordinator = std::move(coordinator);
  st.metrics = run_metrics(config.stop.window);
  st.early = round_gather<episode_report>(std::size_t(std::max(0, config.deterministic_agents)));
  const auto& r = config.resumed;
  st.metrics.restore(r.env_steps, r.episodes, r.updates, r.samples_trained);
  st.last_seconds = r.wall_seconds;
  st.last_steps = r.env_steps;
  if (!config.csv_path.empty()) {
    // A resumed run continues its metrics.csv; a fresh one starts it anew.
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
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(config.log.progress_seconds));
  st.row_steps = config.log.row_env_steps(config.deterministic_agents > 0);
  if (st.row_steps > 0)
    st.next_row_at = (st.metrics.env_steps() / st.row_steps + 1) * st.row_steps;
  else
    self->delayed_send(self, period, caf::tick_atom_v);
  return {
      [=](episode_report& report) {
        auto& st = self->state;
        if (!from_this_process(self)) return;
        if (st.config.deterministic_agents == 0 || st.stop_sent) return count_report(self, report);
        const auto [round, agent] = std::make_pair(report.rollout, report.agent_id);
        if (!st.early.add(round, agent, std::move(report))) return;  // no agent sends one twice
        count_whole_rounds(self);
      },
      [=](round_atom, std::uint64_t round) -> caf::result<bool> {
        auto& st = self->state;
        if (!from_this_process(self)) return make_error(errc::not_local, "a round question from outside this process");
        auto promise = self->make_response_promise<bool>();
        st.round_questions.emplace_back(round, promise);
        answer_round_questions(self);
        return promise;
      },
      [=](const algo::train_result& result) {
        if (from_this_process(self)) self->state.metrics.add_update(result);
      },
      [=](const member_hyperparams& h) {
        if (!from_this_process(self) || h.keys.size() != h.values.size()) return;
        auto& shown = self->state.hyperparams;
        shown.clear();
        for (size_t i = 0; i < h.keys.size(); ++i) shown[h.keys[i]] = h.values[i];
      },
      [=](caf::tick_atom) {
        if (self->state.stop_sent) return;  // the stop's row ends the curve
        write_row_now(self);
        self->delayed_send(self, period, caf::tick_atom_v);
      },
      [=](totals_atom) -> caf::result<metrics_totals> {
        auto& st = self->state;
        if (!from_this_process(self))
          return make_error(errc::not_local, "totals asked from outside this process");
        write_stop_row(self, st.last_batching);
        return current_totals(self);
      },
      [=](final_atom) -> caf::result<metrics_totals> {
        auto& st = self->state;
        if (!from_this_process(self))
          return make_error(errc::not_local, "totals asked from outside this process");
        write_stop_row(self, st.last_batching);
        // The curve ends at the figures the summary reports.
        if (!st.row_taken || st.metrics.env_steps() != st.last_steps || st.metrics.episodes() != st.last_row_episodes) {
          progress_row row = take_row(self);
          // No batch trained since the last row (the learners had drained):
          // the row keeps the last losses, so the curve's last point has them.
          if (row.losses.batches == 0) row.losses = st.last_losses;
          write_row(self, row, st.last_batching);
        }
        return current_totals(self);
      },
  };
}

}  // namespace

metrics_actor spawn_metrics(caf::actor_system& sys, const metrics_config& config,
                            model_owner_actor owner, run_control coordinator) {
  return caf::actor_cast<metrics_actor>(
      sys.spawn(metrics, config, std::move(owner), std::move(coordinator)));
}

}  // namespace troupe::actors
