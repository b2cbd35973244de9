// run.stop's rules: the target reached (confirmed by the evaluator when
// run.stop.confirm_episodes asks) or the env-step budget spent; and the
// stop they send, once.
#include "actors/metrics/metrics_state.hpp"

namespace troupe::actors::metrics_parts {

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

void mark_solved(metrics_pointer self) {
  auto& st = self->state;
  st.totals.solved = true;
  st.totals.seconds_to_target = run_seconds(st.config);
  st.totals.env_steps_to_target = st.metrics.env_steps();
  st.totals.mean_return_at_target = st.triggered_mean_return;
  st.totals.run_env_steps_to_target = run_env_steps(st);
  request_stop(self, run::stop_reason::solved);
}

void check_stop(metrics_pointer self) {
  auto& st = self->state;
  const auto& stop = st.config.stop;
  if (!st.totals.solved && !st.evaluating && st.metrics.window_full() &&
      st.metrics.episodes() >= st.next_confirm_at &&
      st.metrics.mean_return() >= stop.mean_return) {
    st.triggered_mean_return = st.metrics.mean_return();
    if (stop.confirm_episodes > 0 && st.config.evaluator)
      confirm(self);
    else
      mark_solved(self);
  }
  if (stop.env_steps > 0 && run_env_steps(st) >= stop.env_steps)
    request_stop(self, run::stop_reason::env_steps);
}

}  // namespace troupe::actors::metrics_parts
