#include "actors/learner_actor.hpp"

#include <chrono>
#include <iostream>

namespace troupe::actors {

namespace {

struct learner_state {
  std::shared_ptr<agents::a3c_learner> learner;
  metrics_actor metrics;
  learner_final totals;
  static inline const char* name = "learner";
};

using learner_pointer = learner_actor::stateful_pointer<learner_state>;

learner_actor::behavior_type learner(learner_pointer self,
                                     std::shared_ptr<agents::a3c_learner> trainer,
                                     metrics_actor metrics) {
  self->state.learner = std::move(trainer);
  self->state.metrics = std::move(metrics);
  return {
      [=](const agents::rollout& r) {
        auto& st = self->state;
        agents::train_result result;
        const auto start = std::chrono::steady_clock::now();
        struct busy_timer {  // counts the time however train() ends
          std::chrono::steady_clock::time_point start;
          double& total;
          ~busy_timer() {
            total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          }
        } timer{start, st.totals.train_seconds};
        try {
          result = st.learner->train(r);
        } catch (const std::exception& e) {
          std::cerr << "learner: dropped " << e.what() << "\n";
          st.totals.samples_dropped += r.samples();
          return train_ack{r.sequence, false};
        }
        if (result.applied) {
          ++st.totals.updates;
          st.totals.samples_trained += r.samples();
        } else {
          // A non-finite loss or gradient never reaches the parameters, nor
          // does any update once a confirmed solve froze them.
          ++(result.frozen ? st.totals.updates_refused : st.totals.updates_skipped);
          st.totals.samples_dropped += r.samples();
        }
        if (st.metrics) self->send(st.metrics, result);
        return train_ack{r.sequence, result.applied};
      },
      // Rollouts sent before the drain request are ahead of it in the mailbox,
      // so by now every one of them has been trained or counted as dropped.
      [=](drain_atom) { return self->state.totals; },
      [=](checkpoint_atom, const std::string& path,
          const model::checkpoint_meta& meta) -> caf::result<std::uint64_t> {
        try {
          return self->state.learner->save_checkpoint(path, meta);
        } catch (const std::exception& e) {
          return caf::make_error(caf::sec::runtime_error, e.what());
        }
      },
  };
}

}  // namespace

learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<agents::a3c_learner> trainer,
                            metrics_actor metrics) {
  return sys.spawn<caf::detached>(learner, std::move(trainer), std::move(metrics));
}

}  // namespace troupe::actors
