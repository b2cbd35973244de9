#include "actors/learner_actor.hpp"

#include <chrono>
#include <deque>
#include <iostream>

#include "actors/errors.hpp"
#include "actors/network_facing.hpp"
#include "model/staleness_bound.hpp"

namespace troupe::actors {

namespace {

// A rollout that arrived while an update of this replica's own would have
// left a peer more than max_lag behind.
struct waiting_rollout {
  algo::rollout rollout;
  caf::typed_response_promise<train_ack> promise;
};

struct learner_state {
  std::shared_ptr<algo::trainer> trainer;
  metrics_actor metrics;
  learner_final totals;
  replica_setup replica;
  std::vector<replica_link> peers;  // in replica order; empty: a lone replica
  model::staleness_bound bound{0, 1};
  std::deque<waiting_rollout> waiting;
  std::vector<caf::typed_response_promise<learner_final>> drains;
  std::vector<float> delta;  // this replica's last update, for the peers
  static inline const char* name = "learner";
};

using learner_pointer = learner_actor::stateful_pointer<learner_state>;

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

train_ack train_one(learner_pointer self, const algo::rollout& r) {
  auto& st = self->state;
  const bool sharing = !st.peers.empty();
  const auto me = static_cast<int>(st.replica.index);
  // Measured before the update, so never less than the true lag it causes.
  const std::uint64_t lag =
      sharing && st.replica.clock ? st.replica.clock->lag_if_applied(me, st.bound.own_updates() + 1)
                                  : 0;
  algo::train_result result;
  const auto start = std::chrono::steady_clock::now();
  struct busy_timer {  // counts the time however train() ends
    std::chrono::steady_clock::time_point start;
    double& total;
    ~busy_timer() {
      total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } timer{start, st.totals.train_seconds};
  try {
    result = st.trainer->train(r, sharing ? &st.delta : nullptr);
  } catch (const std::exception& e) {
    std::cerr << "learner: dropped " << e.what() << "\n";
    st.totals.samples_dropped += r.samples();
    return train_ack{r.sequence, false};
  }
  st.totals.version = result.version;
  if (result.applied) {
    ++st.totals.updates;
    st.totals.samples_trained += r.samples();
    if (sharing) {
      const std::uint64_t sequence = st.bound.on_own_applied();
      st.totals.max_replica_lag = std::max(st.totals.max_replica_lag, lag);
      if (st.replica.clock) st.replica.clock->set(me, me, sequence);
      share_update(self, sequence);
    }
  } else {
    // A non-finite loss or gradient never reaches the parameters, nor
    // does any update once a confirmed solve froze them.
    ++(result.frozen ? st.totals.updates_refused : st.totals.updates_skipped);
    st.totals.samples_dropped += r.samples();
  }
  if (st.metrics) self->send(st.metrics, result);
  return train_ack{r.sequence, result.applied};
}

// Trains the waiting rollouts the bound now allows; answers the drain
// requests once nothing waits and every peer has every update of ours.
void resume(learner_pointer self) {
  auto& st = self->state;
  while (!st.waiting.empty() && st.bound.may_apply()) {
    waiting_rollout next = std::move(st.waiting.front());
    st.waiting.pop_front();
    next.promise.deliver(train_one(self, next.rollout));
  }
  if (st.waiting.empty() && st.bound.all_acked()) {
    for (auto& d : st.drains) d.deliver(st.totals);
    st.drains.clear();
  }
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

learner_actor::behavior_type learner(learner_pointer self, std::shared_ptr<algo::trainer> trainer,
                                     metrics_actor metrics, replica_setup replica) {
  self->state.trainer = std::move(trainer);
  self->state.metrics = std::move(metrics);
  self->state.replica = std::move(replica);
  return {
      [=](algo::rollout& r) -> caf::result<train_ack> {
        auto& st = self->state;
        if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a rollout");
        if (st.waiting.empty() && st.bound.may_apply()) return train_one(self, r);
        auto promise = self->make_response_promise<train_ack>();
        st.waiting.push_back({std::move(r), promise});
        return promise;
      },
      [=](const replica_update& u) -> caf::result<std::uint64_t> {
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
      },
      [=](peers_atom, const std::vector<caf::strong_actor_ptr>& all) {
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
      },
      // Rollouts sent before the drain request are ahead of it in the
      // mailbox: they have been trained, or wait for the bound, by now.
      [=](drain_atom) -> caf::result<learner_final> {
        auto& st = self->state;
        if (!sender_in_this_process(self->current_sender())) return refuse_foreign(self, "a drain");
        if (st.waiting.empty() && st.bound.all_acked()) return st.totals;
        st.drains.push_back(self->make_response_promise<learner_final>());
        return st.drains.back();
      },
      [=](checkpoint_atom, const std::string& path,
          const model::checkpoint_meta& meta) -> caf::result<std::uint64_t> {
        if (!sender_in_this_process(self->current_sender()))
          return refuse_foreign(self, "a checkpoint request");
        try {
          return self->state.trainer->save_checkpoint(path, meta);
        } catch (const std::exception& e) {
          return make_error(errc::failed, e.what());
        }
      },
  };
}

}  // namespace

learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<algo::trainer> trainer,
                            metrics_actor metrics, const replica_setup& replica) {
  return sys.spawn<caf::detached>(learner, std::move(trainer), std::move(metrics), replica);
}

void introduce_replicas(caf::actor_system& sys, const std::vector<learner_actor>& learners) {
  std::vector<caf::strong_actor_ptr> all;
  for (const auto& l : learners) all.push_back(caf::actor_cast<caf::strong_actor_ptr>(l));
  caf::scoped_actor self{sys};  // a sender of this process: learners refuse anonymous ones
  for (const auto& l : learners) self->send(l, peers_atom_v, all);
}

}  // namespace troupe::actors
