#include "actors/metrics_actor.hpp"

#include <algorithm>
#include <utility>

#include "actors/errors.hpp"
#include "actors/metrics/metrics_state.hpp"
#include "actors/net/network_facing.hpp"

namespace troupe::actors {

namespace metrics_parts {

namespace {

// Reports and counts reach the metrics only from actors of this process;
// anything else is refused and counted.
bool from_this_process(metrics_pointer self) {
  if (sender_in_this_process(self->current_sender())) return true;
  ++self->state.foreign_refused;
  return false;
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

}  // namespace

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

namespace {

// The handlers, one for each message of the protocol (actors/metrics_actor.hpp).

// An agent's report: counted now, or in a deterministic run once its round
// is whole.
void on_report(metrics_pointer self, episode_report& report) {
  auto& st = self->state;
  if (!from_this_process(self)) return;
  if (st.config.deterministic_agents == 0 || st.stop_sent) return count_report(self, report);
  const auto [round, agent] = std::make_pair(report.rollout, report.agent_id);
  if (!st.early.add(round, agent, std::move(report))) return;  // no agent sends one twice
  count_whole_rounds(self);
}

// The learner asks whether a deterministic round may train: answered once
// its reports are counted and no evaluation is under way.
caf::result<bool> on_round_question(metrics_pointer self, std::uint64_t round) {
  if (!from_this_process(self)) return make_error(errc::not_local, "a round question from outside this process");
  auto promise = self->make_response_promise<bool>();
  self->state.round_questions.emplace_back(round, promise);
  answer_round_questions(self);
  return promise;
}

// The driver's hyperparameters for this member, shown in every row.
void on_hyperparams(metrics_pointer self, const member_hyperparams& h) {
  if (!from_this_process(self) || h.keys.size() != h.values.size()) return;
  auto& shown = self->state.hyperparams;
  shown.clear();
  for (size_t i = 0; i < h.keys.size(); ++i) shown[h.keys[i]] = h.values[i];
}

// The totals now (a checkpoint's counters), or at the end (the summary's,
// after a last row).
caf::result<metrics_totals> on_totals(metrics_pointer self, bool at_end) {
  if (!from_this_process(self)) return make_error(errc::not_local, "totals asked from outside this process");
  if (at_end)
    write_final_row(self);
  else
    write_stop_row(self, self->state.last_batching);
  return current_totals(self);
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
  open_logs(st);
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(config.log.progress_seconds));
  st.row_steps = config.log.row_env_steps(config.deterministic_agents > 0);
  if (st.row_steps > 0)
    st.next_row_at = (st.metrics.env_steps() / st.row_steps + 1) * st.row_steps;
  else
    self->delayed_send(self, period, caf::tick_atom_v);
  return {
      [=](episode_report& report) { on_report(self, report); },
      [=](round_atom, std::uint64_t round) { return on_round_question(self, round); },
      [=](const algo::train_result& result) {
        if (from_this_process(self)) self->state.metrics.add_update(result);
      },
      [=](const member_hyperparams& h) { on_hyperparams(self, h); },
      [=](caf::tick_atom) {
        if (self->state.stop_sent) return;  // the stop's row ends the curve
        write_row_now(self);
        self->delayed_send(self, period, caf::tick_atom_v);
      },
      [=](totals_atom) { return on_totals(self, false); },
      [=](final_atom) { return on_totals(self, true); },
  };
}

}  // namespace

}  // namespace metrics_parts

metrics_actor spawn_metrics(caf::actor_system& sys, const metrics_config& config,
                            model_owner_actor owner, run_control coordinator) {
  return caf::actor_cast<metrics_actor>(
      sys.spawn(metrics_parts::metrics, config, std::move(owner), std::move(coordinator)));
}

}  // namespace troupe::actors
