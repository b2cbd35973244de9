#pragma once
// The actor system as every Troupe process configures it.
#include <caf/actor_system_config.hpp>

namespace troupe::actors {
// Adds every protocol's message types (actors/messages/) and the scheduler
// settings measured to suit this workload (actor_system_setup.cpp says why:
// idle workers otherwise sleep-poll).
void configure_actor_system(caf::actor_system_config& cfg);
}  // namespace troupe::actors
