#pragma once
// Population-based training's driver on the learner's node (docs/pbt.md):
// the coordinator's loop polls it; it reads every member's totals from its
// metrics actor, and for each member past its next decision asks the
// population (agents/population.hpp) what to do and has the member's
// learner do it (a pbt_step: copy the source's learned state, then the new
// hyperparameters; actors/learner_actor.hpp), waiting for its answer. Every
// decision is a row of RUN/pbt.csv, and RUN/pbt.json holds the population's
// state (each member's hyperparameters, next decision and lineage), written
// atomically after every decision and at every checkpoint; a resumed run
// takes it up and cuts pbt.csv back to the decisions it lists.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "agents/population.hpp"

namespace troupe::actors {

struct pbt_member {
  learner_actor learner;
  metrics_actor metrics;
  std::shared_ptr<live_hyperparams> shown;  // what its rows show
};

class pbt_driver {
 public:
  // `dir`: the run directory (empty: no files).
  pbt_driver(agents::population population, std::string dir, std::vector<pbt_member> members);

  // A fresh run: the first draws (the members were built with them) and
  // pbt.csv's header. Resumed (pbt.json there): its state, each member's
  // hyperparameters sent to its learner. Throws run::config_error naming a
  // damaged pbt.json.
  void start(caf::scoped_actor& self, bool resumed);
  // Decides for every member whose env steps passed its next decision.
  // Throws std::runtime_error when a learner does not answer.
  void poll(caf::scoped_actor& self);
  // RUN/pbt.json now (throws model::checkpoint_error when it cannot be written).
  void save() const;

  const agents::pbt_state& state() const { return state_; }

 private:
  void apply(caf::scoped_actor& self, int member, const agents::pbt_decision& d,
             const std::vector<double>& scores, std::int64_t member_steps, std::int64_t run_steps);
  void append_row(const agents::pbt_decision& d, double score, double source_score, std::int64_t member_steps,
                  std::int64_t run_steps) const;

  agents::population population_;
  std::string dir_;
  std::vector<pbt_member> members_;
  agents::pbt_state state_;
};

}  // namespace troupe::actors
