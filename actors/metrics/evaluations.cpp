// The evaluator's two handshakes: confirming that the window's mean is the
// parameters' own (run.stop.confirm_episodes), and fresh episodes now and
// then that keep the best parameters as best.pt (checkpoint.best). One
// evaluation at a time; each gets the next seed.
#include "actors/metrics/metrics_state.hpp"

namespace troupe::actors::metrics_parts {

namespace {

// A confirmation plays run.stop.confirm_episodes whole episodes: long, but
// not without end.
constexpr auto confirmation_timeout = std::chrono::minutes(10);

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

}  // namespace

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

}  // namespace troupe::actors::metrics_parts
