#pragma once
// An actor system with Troupe's message types and CAF's network layer, as a
// node of its own: the tests that play a second process, and the rogue peer,
// make one per node they need.
#include <memory>

#include <caf/all.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

#include "actors/net/network_setup.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/messages/atoms.hpp"

namespace troupe::tests {

struct network_system {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  network_system() {
    actors::configure_actor_system(cfg);
    actors::configure_network(cfg, {});
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

}  // namespace troupe::tests
