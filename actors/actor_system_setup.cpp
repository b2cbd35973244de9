#include "actors/actor_system_setup.hpp"

#include "actors/errors.hpp"
#include "actors/handle_types.hpp"
#include "actors/messages/frames.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/pbt.hpp"
#include "actors/messages/predict.hpp"

namespace troupe::actors {

namespace {
// Each block within its range (actors/messages/type_id_ranges.hpp): two
// types sharing an ID would decode as each other.
template <class Block>
constexpr bool ends_by(caf::type_id_t next_begin) {
  return Block::begin <= Block::end && Block::end <= next_begin;
}
static_assert(ends_by<caf::id_block::troupe_predict>(type_id_ranges::learning));
static_assert(ends_by<caf::id_block::troupe_learning>(type_id_ranges::metrics));
static_assert(ends_by<caf::id_block::troupe_metrics>(type_id_ranges::network));
static_assert(ends_by<caf::id_block::troupe_network>(type_id_ranges::frames));
static_assert(ends_by<caf::id_block::troupe_frames>(type_id_ranges::pbt));
static_assert(ends_by<caf::id_block::troupe_pbt>(type_id_ranges::handles));
static_assert(ends_by<caf::id_block::troupe_handles>(type_id_ranges::end));
}  // namespace

void configure_actor_system(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::troupe_predict>();
  cfg.add_message_types<caf::id_block::troupe_learning>();
  cfg.add_message_types<caf::id_block::troupe_metrics>();
  cfg.add_message_types<caf::id_block::troupe_network>();
  cfg.add_message_types<caf::id_block::troupe_frames>();
  cfg.add_message_types<caf::id_block::troupe_pbt>();
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
