#pragma once
// Actor handles that travel inside messages need type IDs, like every other
// message type; they get theirs here, after the protocols that define them.
// configure_actor_system registers this block beside the protocols' own
// (actors/messages/).
#include "actors/agent_actor.hpp"
#include "actors/messages/type_id_ranges.hpp"
#include "actors/metrics_actor.hpp"

CAF_BEGIN_TYPE_ID_BLOCK(troupe_handles, troupe::actors::type_id_ranges::handles)
  CAF_ADD_TYPE_ID(troupe_handles, (troupe::actors::agent_actor))
  CAF_ADD_TYPE_ID(troupe_handles, (troupe::actors::metrics_actor))
CAF_END_TYPE_ID_BLOCK(troupe_handles)
