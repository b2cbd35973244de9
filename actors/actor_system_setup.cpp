#include "actors/messages.hpp"

namespace troupe::actors {

void configure_actor_system(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::troupe>();
  // Measured here: idle workers otherwise sleep-poll for 50 µs before
  // noticing work, which dominates a predict round trip.
  cfg.set("work-stealing.moderate-poll-attempts", 0);
  cfg.set("scheduler.max-threads", 2);
}

}  // namespace troupe::actors
