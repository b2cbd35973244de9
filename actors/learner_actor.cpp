#include "actors/learner_actor.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <iostream>
#include <optional>
#include <unordered_map>
#include <utility>

#include "actors/errors.hpp"
#include "actors/net/network_facing.hpp"
#include "actors/round_gather.hpp"
#include "algo/collection_budget.hpp"
#include "algo/learner.hpp"
#include "model/staleness_bound.hpp"

namespace troupe::actors {

namespace {

// A rollout that has arrived and waits for its batch to fill, or for the
// staleness bound to let this replica's next update through. Its ticket
// names its acknowledgement in the collection budget.
struct waiting_rollout {
  algo::rollout rollout;
  std::uint64_t ticket = 0;
  bool acknowledged = false;  // a deterministic run's leftover: acknowledged with its round
  bool refused = false;       // a deterministic run's place of a refused rollout in its round
};

// An acknowledgement owed to an agent: ready, or not yet (its rollout waits).
struct owed_ack {
  caf::typed_response_promise<train_ack> promise;
  train_ack ack;
};

// How often held acknowledgements are looked at again while nothing arrives
// (an agent that went silent stops counting as collecting).
constexpr auto budget_tick = std::chrono::milliseconds(50);

struct learner_state {
  std::shared_ptr<algo::trainer> trainer;
  metrics_actor metrics;
  learner_final totals;
  replica_setup replica;
  rollout_admission admission;
  update_hook after_updates;  // null: none
  std::vector<replica_link> peers;  // in replica order; empty: a lone replica
  model::staleness_bound bound{0, 1};
  std::deque<waiting_rollout> waiting;  // in arrival order
  int batch_rollouts = 1;               // the trainer's batch
  std::vector<caf::typed_response_promise<learner_final>> drains;
  std::vector<float> delta;  // this replica's last update, for the peers
  std::optional<algo::collection_budget> budget;
  std::unordered_map<std::uint64_t, owed_ack> owed;  // by ticket
  std::uint64_t next_ticket = 0;
  bool tick_pending = false;
  // A deterministic run's rounds: rollouts by (sequence, agent) until their
  // round is whole, and the acknowledgements owed when the one training ends.
  round_gather<waiting_rollout> gathering;
  bool asking_metrics = false;  // about the next round
  bool halted = false;          // the metrics actor said the run stops: no round trains any more
  std::vector<std::uint64_t> round_tickets;
  static inline const char* name = "learner";
};

// Its own timer (held acknowledgements are due a look) is no part of its
// public protocol.
using learner_impl = learner_actor::extend<caf::reacts_to<caf::tick_atom>>;
using learner_pointer = learner_impl::stateful_pointer<learner_state>;

void resume(learner_pointer self);

// Peer `peer` has applied update `sequence` of ours (or is gone: then it no
// longer holds anything back, and the run is failing anyway).
void on_ack(learner_pointer self, int peer, std::uint64_t sequence) {
  self->state.bound.on_ack(peer, sequence);
  resume(self);
}

// Sends this replica's update number `sequence` to every other replica.
void share_update(learner_pointer self, std::uint64_t sequence) {
  auto& st = self->state;
  const auto me = st.replica.index;
  for (std::uint32_t j = 0; j < st.peers.size(); ++j) {
    if (j == me) continue;
    const int peer = static_cast<int>(j < me ? j : j - 1);  // the bound counts peers only
    self->request(st.peers[j], caf::duration{caf::infinite}, replica_update{me, sequence, st.delta})
        .then([=](std::uint64_t) { on_ack(self, peer, sequence); },
              [=](caf::error& err) {
                std::cerr << "learner " << me << ": replica " << j
                          << " did not apply an update: " << caf::to_string(err) << "\n";
                on_ack(self, peer, sequence);
              });
  }
}

// Sends the acknowledgements the collection budget lets go.
void deliver(learner_pointer self, const std::vector<std::uint64_t>& tickets) {
  auto& st = self->state;
  for (std::uint64_t t : tickets) {
    auto it = st.owed.find(t);
    if (it == st.owed.end()) continue;
    it->second.promise.deliver(it->second.ack);
    st.owed.erase(it);
  }
  if (st.budget && st.budget->holding() && !st.tick_pending) {
    st.tick_pending = true;
    self->delayed_send(self, budget_tick, caf::tick_atom_v);
  }
}

// A rollout has been trained or dropped: its acknowledgement goes when the
// budget lets it (at once without one).
void acknowledge(learner_pointer self, std::uint32_t agent, std::uint64_t ticket, train_ack ack) {
  auto& st = self->state;
  st.owed[ticket].ack = ack;
  if (st.admission.deterministic_agents > 0) return st.round_tickets.push_back(ticket);
  if (!st.budget) return deliver(self, {ticket});
  deliver(self, st.budget->on_ready(agent, ticket, std::chrono::steady_clock::now()));
}

// Rollouts whose oldest step is more than algo.max_policy_lag versions
// behind the parameters now are dropped before they train (their agents
// are told, and go on).
void drop_stale(learner_pointer self) {
  auto& st = self->state;
  const std::uint64_t bound = st.admission.max_policy_lag;
  if (bound == 0 || st.waiting.empty()) return;
  const std::uint64_t now = st.trainer->version();
  for (auto w = st.waiting.begin(); w != st.waiting.end();) {
    const auto& versions = w->rollout.behaviour_version;
    const std::uint64_t oldest =
        versions.empty() ? now : *std::min_element(versions.begin(), versions.end());
    if (now <= oldest || now - oldest <= bound) {
      ++w;
      continue;
    }
    st.totals.samples_dropped += w->rollout.samples();
    st.totals.samples_stale += w->rollout.samples();
    const auto agent = w->rollout.agent_id;
    const auto ack = train_ack{w->rollout.sequence, false};
    const auto ticket = w->ticket;
    const bool acknowledged = w->acknowledged;
    w = st.waiting.erase(w);
    if (!acknowledged) acknowledge(self, agent, ticket, ack);
  }
}

// Trains the oldest full batch of waiting rollouts and answers each of them.
void train_batch(learner_pointer self) {
  auto& st = self->state;
  std::vector<algo::rollout> batch;
  std::vector<std::uint64_t> tickets;
  std::vector<std::uint32_t> agents;
  std::vector<std::uint64_t> sequences;
  std::vector<bool> acknowledged;
  std::int64_t samples = 0;
  for (int i = 0; i < st.batch_rollouts; ++i) {
    waiting_rollout& w = st.waiting.front();
    samples += w.rollout.samples();
    sequences.push_back(w.rollout.sequence);
    agents.push_back(w.rollout.agent_id);
    tickets.push_back(w.ticket);
    acknowledged.push_back(w.acknowledged);
    batch.push_back(std::move(w.rollout));
    st.waiting.pop_front();
  }
  const bool sharing = !st.peers.empty();
  const auto me = static_cast<int>(st.replica.index);
  // Measured before the update, so never less than the true lag it causes.
  const std::uint64_t lag =
      sharing && st.replica.clock ? st.replica.clock->lag_if_applied(me, st.bound.own_updates() + 1)
                                  : 0;
  algo::train_result result;
  bool trained = false;
  {
    const auto start = std::chrono::steady_clock::now();
    struct busy_timer {  // counts the time however train() ends
      std::chrono::steady_clock::time_point start;
      double& total;
      ~busy_timer() {
        total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
    } timer{start, st.totals.train_seconds};
    try {
      result = st.trainer->train(std::move(batch), sharing ? &st.delta : nullptr);
      trained = true;
    } catch (const std::exception& e) {
      std::cerr << "learner: dropped a batch of " << tickets.size() << " rollouts: " << e.what() << "\n";
    }
  }
  if (trained) {
    st.totals.version = result.version;
    ++st.totals.batches;
    st.totals.updates += result.updates;
    st.totals.updates_skipped += result.updates_skipped;
    if (result.frozen) ++st.totals.updates_refused;
  }
  if (trained && result.applied) {
    // Every sample counts once, however many epochs trained it.
    st.totals.samples_trained += samples;
    if (sharing) {
      const std::uint64_t sequence = st.bound.on_own_applied();
      st.totals.max_replica_lag = std::max(st.totals.max_replica_lag, lag);
      if (st.replica.clock) st.replica.clock->set(me, me, sequence);
      share_update(self, sequence);
    }
  } else {
    // A non-finite loss or gradient never reaches the parameters, nor
    // does any update once a confirmed solve froze them.
    st.totals.samples_dropped += samples;
  }
  if (trained && st.metrics) self->send(st.metrics, result);
  if (trained && result.applied && st.after_updates) st.after_updates(result.updates);
  for (size_t i = 0; i < tickets.size(); ++i)
    if (!acknowledged[i])
      acknowledge(self, agents[i], tickets[i], train_ack{sequences[i], trained && result.applied});
}

void advance_rounds(learner_pointer self);

// A deterministic run's rollout out of its round, to train; a refused
// one's place is only acknowledged (its samples are counted dropped).
void take_into_waiting(learner_pointer self, waiting_rollout&& w) {
  if (w.refused)
    acknowledge(self, w.rollout.agent_id, w.ticket, train_ack{w.rollout.sequence, false});
  else
    self->state.waiting.push_back(std::move(w));
}

// A deterministic run's next round, whole and counted: trains it in agent
// order, then acknowledges all of it at once.
void train_round(learner_pointer self) {
  auto& st = self->state;
  for (auto& w : st.gathering.take_next())
    take_into_waiting(self, std::move(w));
  drop_stale(self);
  while (st.waiting.size() >= size_t(st.batch_rollouts)) {
    train_batch(self);
    drop_stale(self);
  }
  for (auto& w : st.waiting)  // left over for a later round's batch
    if (!w.acknowledged) {
      acknowledge(self, w.rollout.agent_id, w.ticket, train_ack{w.rollout.sequence, false});
      w.acknowledged = true;
    }
  deliver(self, std::exchange(st.round_tickets, {}));
  advance_rounds(self);
}

// A deterministic run: once the next round is whole, asks the metrics actor
// whether it trains (its reports counted, no evaluation under way).
void advance_rounds(learner_pointer self) {
  auto& st = self->state;
  if (st.halted || st.asking_metrics || !st.gathering.next_is_whole()) return;
  if (!st.metrics) return train_round(self);
  st.asking_metrics = true;
  self->request(st.metrics, caf::infinite, round_atom_v, st.gathering.rounds_taken())
      .then(
          [=](bool go) {
            auto& st = self->state;
            st.asking_metrics = false;
            if (st.halted) return;  // drained meanwhile: the round was dropped
            if (go)
              train_round(self);
            else
              st.halted = true;
          },
          [=](caf::error&) {
            self->state.asking_metrics = false;
            self->state.halted = true;
          });
}

// Trains every full batch the bound now allows. Drain requests are answered
// once no full batch waits and every peer has every update of ours; the
// rollouts of a batch that cannot fill any more (the agents have stopped)
// are then dropped and counted, like an agent's unfinished rollout.
void resume(learner_pointer self) {
  auto& st = self->state;
  if (st.admission.deterministic_agents > 0) {
    if (st.drains.empty()) return;  // rounds train in advance_rounds
    // The run ends: a round not trained by now never is (its agents have
    // stopped), nor are the leftovers of the last one. Not even one the
    // metrics actor is being asked about: a stop it decided has said no
    // already, and one it did not (an interrupt) falls at no fixed point.
    for (auto& w : st.gathering.take_all()) take_into_waiting(self, std::move(w));
    st.halted = true;
  }
  drop_stale(self);
  while (!st.halted && st.waiting.size() >= size_t(st.batch_rollouts) && st.bound.may_apply()) {
    train_batch(self);
    drop_stale(self);
  }
  if (st.drains.empty() || (!st.halted && st.waiting.size() >= size_t(st.batch_rollouts)) ||
      !st.bound.all_acked())
    return;
  for (auto& w : st.waiting) {
    st.totals.samples_dropped += w.rollout.samples();
    if (!w.acknowledged)
      acknowledge(self, w.rollout.agent_id, w.ticket, train_ack{w.rollout.sequence, false});
  }
  st.waiting.clear();
  deliver(self, std::exchange(st.round_tickets, {}));
  // The agents have stopped: nothing is held back any more.
  if (st.budget) deliver(self, st.budget->release_all());
  if (st.budget) st.totals.acks_held = st.budget->tickets_held_total();
  for (auto& d : st.drains) d.deliver(st.totals);
  st.drains.clear();
}

// Nothing from outside this process reaches the parameters: a message
// whose sender is not an actor of this process is refused and counted.
caf::error refuse_foreign(learner_pointer self, const char* what) {
  ++self->state.totals.foreign_refused;
  return make_error(errc::not_local, std::string(what) + " from outside this process");
}

// A replica update must come from one of the peer replicas' learners.
bool from_a_peer(learner_pointer self) {
  const auto& sender = self->current_sender();
  if (!sender_in_this_process(sender)) return false;
  for (const auto& peer : self->state.peers)
    if (sender == caf::actor_cast<caf::strong_actor_ptr>(peer)) return true;
  return false;
}

// This learner as population-based training sees it (null: a trainer
// that is not one, e.g. a test's).
algo::learner* population_member(learner_pointer self) {
  return dynamic_cast<algo::learner*>(self->state.trainer.get());
}

// A population's decision for this member: the source's learned state, as
// the source's learner sent it, in place of this one's, then the new
// hyperparameters, all before the next batch trains (a message is handled
// between batches).
caf::result<std::uint64_t> on_pbt_step(learner_pointer self, const pbt_step& step) {
  if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a pbt step");
  auto& st = self->state;
  algo::learner* me = population_member(self);
  if (!me) return make_error(errc::failed, "this learner is no member of a population");
  if (step.keys.size() != step.values.size()) return make_error(errc::malformed, "a pbt step's keys and values differ in number");
  try {
    std::uint64_t version = me->version();
    if (step.source >= 0) {
      version = me->adopt(step.state);
      st.totals.version = version;
    }
    for (size_t i = 0; i < step.keys.size(); ++i) me->set_hyperparameter(step.keys[i], step.values[i]);
    return version;
  } catch (const std::exception& e) {
    return make_error(errc::failed, e.what());
  }
}

// A rollout from an agent of this process: checked, then trained in a batch
// (or, in deterministic rounds, once its round is whole); answered when
// trained or dropped.
caf::result<train_ack> on_rollout(learner_pointer self, algo::rollout& r) {
  auto& st = self->state;
  if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a rollout");
  const bool rounds = st.admission.deterministic_agents > 0;
  if (rounds && st.gathering.has(r.sequence, r.agent_id)) {  // an agent never sends one twice; refused if it did
    st.totals.samples_dropped += r.samples();
    return train_ack{r.sequence, false};
  }
  try {
    st.trainer->check(r);
  } catch (const std::exception& e) {
    std::cerr << "learner: dropped " << e.what() << "\n";
    st.totals.samples_dropped += r.samples();
    if (rounds) {
      // Its place in the round stays, empty, or the round could never
      // be whole; its agent waits for the round like the others.
      algo::rollout place;
      place.agent_id = r.agent_id;
      place.sequence = r.sequence;
      auto promise = self->make_response_promise<train_ack>();
      const std::uint64_t ticket = st.next_ticket++;
      st.owed[ticket].promise = promise;
      st.gathering.add(r.sequence, r.agent_id, waiting_rollout{std::move(place), ticket, false, true});
      advance_rounds(self);
      return promise;
    }
    return train_ack{r.sequence, false};
  }
  auto promise = self->make_response_promise<train_ack>();
  const std::uint64_t ticket = st.next_ticket++;
  st.owed[ticket].promise = promise;
  if (rounds) {
    const auto [sequence, agent] = std::make_pair(r.sequence, r.agent_id);
    st.gathering.add(sequence, agent, waiting_rollout{std::move(r), ticket});
    advance_rounds(self);
    return promise;
  }
  if (st.budget) deliver(self, st.budget->on_arrival(r.agent_id, std::chrono::steady_clock::now()));
  st.waiting.push_back({std::move(r), ticket});
  resume(self);
  return promise;
}

// The collection budget's clock: rollouts held past their time are let go.
void on_tick(learner_pointer self) {
  auto& st = self->state;
  st.tick_pending = false;
  if (st.budget) deliver(self, st.budget->on_tick(std::chrono::steady_clock::now()));
}

// A peer replica's update, applied here; answered with the version it made.
caf::result<std::uint64_t> on_replica_update(learner_pointer self, const replica_update& u) {
  auto& st = self->state;
  if (!from_a_peer(self)) {
    ++st.totals.foreign_replica_updates;
    return make_error(errc::not_local, "a replica update from an actor that is no peer replica");
  }
  try {
    if (const auto version = st.trainer->apply_peer_update(u.delta)) {
      st.totals.version = *version;
      ++st.totals.peer_updates;
    } else {
      ++st.totals.updates_refused;  // frozen: the run has been solved
    }
  } catch (const std::exception& e) {
    return make_error(errc::malformed, e.what());
  }
  // Counted before answering: the origin never learns of an
  // application the clock does not show yet.
  if (st.replica.clock) st.replica.clock->set(st.replica.index, u.origin, u.sequence);
  return st.totals.version;
}

// The replicas of this policy, told once by the run builder.
void on_peers(learner_pointer self, const std::vector<caf::strong_actor_ptr>& all) {
  auto& st = self->state;
  if (!sender_in_this_process(self->current_sender()) || !st.peers.empty()) {
    ++st.totals.foreign_refused;  // told once, by the run builder
    return;
  }
  for (const auto& p : all)
    if (!sender_in_this_process(p)) return;  // peers are of this process
  if (all.size() < 2) return;
  st.peers.clear();
  for (const auto& p : all) st.peers.push_back(caf::actor_cast<replica_link>(p));
  st.bound = model::staleness_bound(static_cast<int>(all.size()) - 1, st.replica.max_lag);
}

// The run's end: answered once every rollout sent before it has been
// trained (rollouts sent before the drain request are ahead of it in the
// mailbox: they have been trained, or wait in a batch or for the bound).
caf::result<learner_final> on_drain(learner_pointer self) {
  auto& st = self->state;
  if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a drain");
  auto promise = self->make_response_promise<learner_final>();
  st.drains.push_back(promise);
  resume(self);
  return promise;
}

// A checkpoint of the learned state, written between batches (a message is
// handled between them).
caf::result<std::uint64_t> on_checkpoint(learner_pointer self, const std::string& path,
                                         const model::checkpoint_meta& meta) {
  if (!sender_in_this_process(self->current_sender()))
    return refuse_foreign(self, "a checkpoint request");
  try {
    return self->state.trainer->save_checkpoint(path, meta);
  } catch (const std::exception& e) {
    return make_error(errc::failed, e.what());
  }
}

// Population-based training asks this member for its learned state
// (parameters, optimiser state, normalisers), taken between batches.
caf::result<algo::learned_state> on_snapshot(learner_pointer self) {
  if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a snapshot request");
  algo::learner* me = population_member(self);
  if (!me) return make_error(errc::failed, "this learner is no member of a population");
  try {
    return me->export_state();
  } catch (const std::exception& e) {
    return make_error(errc::failed, e.what());
  }
}

learner_impl::behavior_type learner(learner_pointer self, std::shared_ptr<algo::trainer> trainer,
                                    metrics_actor metrics, replica_setup replica,
                                    rollout_admission admission, update_hook after_updates) {
  auto& st = self->state;
  st.after_updates = std::move(after_updates);
  st.trainer = std::move(trainer);
  st.batch_rollouts = std::max(1, st.trainer->batch_rollouts());
  st.metrics = std::move(metrics);
  st.replica = std::move(replica);
  st.admission = admission;
  st.gathering = round_gather<waiting_rollout>(std::size_t(std::max(0, admission.deterministic_agents)));
  if (admission.max_in_flight > 0)
    st.budget.emplace(algo::collection_budget::settings{admission.max_in_flight,
                                                        admission.per_agent_in_flight});
  return {
      [=](algo::rollout& r) -> caf::result<train_ack> { return on_rollout(self, r); },
      [=](caf::tick_atom) { on_tick(self); },
      [=](const replica_update& u) -> caf::result<std::uint64_t> { return on_replica_update(self, u); },
      [=](peers_atom, const std::vector<caf::strong_actor_ptr>& all) { on_peers(self, all); },
      [=](drain_atom) -> caf::result<learner_final> { return on_drain(self); },
      [=](checkpoint_atom, const std::string& path, const model::checkpoint_meta& meta)
          -> caf::result<std::uint64_t> { return on_checkpoint(self, path, meta); },
      [=](pbt_atom, const pbt_step& step) -> caf::result<std::uint64_t> { return on_pbt_step(self, step); },
      [=](snapshot_atom) -> caf::result<algo::learned_state> { return on_snapshot(self); },
  };
}

}  // namespace

learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<algo::trainer> trainer,
                            metrics_actor metrics, const replica_setup& replica,
                            const rollout_admission& admission, update_hook after_updates) {
  return caf::actor_cast<learner_actor>(sys.spawn<caf::detached>(learner, std::move(trainer), std::move(metrics),
                                                                 replica, admission, std::move(after_updates)));
}

void introduce_replicas(caf::actor_system& sys, const std::vector<learner_actor>& learners) {
  std::vector<caf::strong_actor_ptr> all;
  for (const auto& l : learners) all.push_back(caf::actor_cast<caf::strong_actor_ptr>(l));
  caf::scoped_actor self{sys};  // a sender of this process: learners refuse anonymous ones
  for (const auto& l : learners) self->send(l, peers_atom_v, all);
}

}  // namespace troupe::actors
