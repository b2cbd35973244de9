#pragma once
// Where each protocol's type-ID block starts. Every block has a fixed range
// of its own, as libcaf_io's io_module block has, so a protocol's header
// includes no other protocol's to learn where its IDs begin.
// actors/actor_system_setup.cpp checks at compile time that every block
// ends before the next one begins; a block that outgrows its range fails
// that check, and the ranges after it move up.
#include <caf/type_id.hpp>

namespace troupe::actors::type_id_ranges {

constexpr caf::type_id_t predict = caf::first_custom_type_id;
constexpr caf::type_id_t learning = predict + 10;
constexpr caf::type_id_t metrics = learning + 20;
constexpr caf::type_id_t network = metrics + 10;
constexpr caf::type_id_t frames = network + 20;
constexpr caf::type_id_t pbt = frames + 10;
constexpr caf::type_id_t handles = pbt + 10;
constexpr caf::type_id_t end = handles + 10;

}  // namespace troupe::actors::type_id_ranges
