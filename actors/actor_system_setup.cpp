#include "actors/errors.hpp"
#include "actors/handle_types.hpp"
#include "actors/messages.hpp"

namespace troupe::actors {

void configure_actor_system(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::troupe>();
  cfg.add_message_types<caf::id_block::troupe_handles>();
  cfg.add_error_category(caf::atom("troupe"),
                         [](uint8_t code, caf::atom_value, const caf::message& context) {
                           std::string text = "troupe: " + to_string(static_cast<errc>(code));
                           if (context.match_elements<std::string>())
                             text += ": " + context.get_as<std::string>(0);
                           return text;
                         });
  // Measured here: idle workers otherwise sleep-poll for 50 µs before
  // noticing work, which dominates a predict round trip.
  cfg.set("work-stealing.moderate-poll-attempts", 0);
  cfg.set("scheduler.max-threads", 2);
}

}  // namespace troupe::actors
