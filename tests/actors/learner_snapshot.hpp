#pragma once
// A learner actor's snapshot of what it has learned, asked for by message
// (actors/learner_actor.hpp's snapshot_atom), for the PBT tests.
#include <chrono>

#include <doctest/doctest.h>

#include "actors/learner_actor.hpp"

namespace troupe::tests {

inline algo::learned_state snapshot_of(caf::scoped_actor& self, const actors::learner_actor& learner) {
  algo::learned_state out;
  self->request(learner, std::chrono::seconds(10), actors::snapshot_atom_v)
      .receive([&](algo::learned_state& s) { out = std::move(s); }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
  return out;
}

}  // namespace troupe::tests
