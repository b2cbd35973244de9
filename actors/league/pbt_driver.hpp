#pragma once
// Population-based training's driver on the learner's node (docs/pbt.md),
// an actor of its own. On its own clock it reads every member's totals from
// its metrics actor, and for each member past its next decision asks the
// population (agents/league/population.hpp) what to do. An exploit asks the source
// member's learner for a snapshot of what it has learned (parameters,
// optimiser state, normalisers: a plain value taken between two of its
// batches) and sends it, with the new hyperparameters, to the member's
// learner, which adopts it between two of its own (a pbt_step;
// actors/learner_actor.hpp). Nothing of one learner is reachable from
// another's thread: the state travels by message. Decisions are carried
// out one at a time, in the order they were made. Every decision is a row
// of RUN/pbt.csv, and RUN/pbt.json holds the population's state (each
// member's hyperparameters, next decision and lineage), written atomically
// after every decision and at every checkpoint; a resumed run takes it up
// and cuts pbt.csv back to the decisions it lists.
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/learner_actor.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/pbt.hpp"
#include "actors/metrics_actor.hpp"
#include "agents/league/population.hpp"

namespace troupe::actors {

// A member's learner, and its metrics actor: the driver reads its totals
// there and sends it the member's hyperparameters, which its rows show.
struct pbt_member {
  learner_actor learner;
  metrics_actor metrics;
};

// The driver's protocol:
//   start_atom, resumed: a fresh run's first draws (the members were built
//     with them) and pbt.csv's header; resumed (pbt.json there), its state,
//     each member's hyperparameters sent to its learner. Answered once done;
//     a damaged pbt.json is refused with errc::malformed, naming the file.
//     The driver's clock starts then.
//   checkpoint_atom: RUN/pbt.json now (errc::failed when it cannot be written).
//   stop_atom: no decision after this one; answered, once the decision under
//     way is carried out, with the population's state (pbt.json's text) and
//     why the driver failed, if it did.
//   decide_atom: the driver's own clock (from itself only).
// When a member does not answer, the driver stops deciding and sends the
// coordinator a stop_request (run::stop_reason::pbt_failed).
using pbt_driver_actor = caf::typed_actor<caf::replies_to<start_atom, bool>::with<bool>,
                                          caf::replies_to<checkpoint_atom>::with<bool>,
                                          caf::replies_to<stop_atom>::with<pbt_final>,
                                          caf::reacts_to<decide_atom>>;

// `dir`: the run directory (empty: no files). Members in member order.
pbt_driver_actor spawn_pbt_driver(caf::actor_system& sys, agents::population population, std::string dir,
                                  std::vector<pbt_member> members, run_control coordinator);

}  // namespace troupe::actors
