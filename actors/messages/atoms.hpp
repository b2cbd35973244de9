#pragma once
// The verbs of every protocol. An atom is a compile-time constant in CAF
// 0.17, not a type with an ID, so these need no type-ID block; each
// actor's typed-actor alias says which of them it answers. NAME_v is the
// value a message carries.
#include <caf/atom.hpp>

namespace troupe::actors {

using start_atom = caf::atom_constant<caf::atom("start")>;
constexpr start_atom start_atom_v{};
using stop_atom = caf::atom_constant<caf::atom("stop")>;
constexpr stop_atom stop_atom_v{};
using stats_atom = caf::atom_constant<caf::atom("stats")>;
constexpr stats_atom stats_atom_v{};
using drain_atom = caf::atom_constant<caf::atom("drain")>;
constexpr drain_atom drain_atom_v{};
using totals_atom = caf::atom_constant<caf::atom("totals")>;
constexpr totals_atom totals_atom_v{};
using batch_timeout_atom = caf::atom_constant<caf::atom("batch_tmo")>;
constexpr batch_timeout_atom batch_timeout_atom_v{};
using checkpoint_atom = caf::atom_constant<caf::atom("checkpoint")>;
constexpr checkpoint_atom checkpoint_atom_v{};
using evaluate_atom = caf::atom_constant<caf::atom("evaluate")>;
constexpr evaluate_atom evaluate_atom_v{};
using render_atom = caf::atom_constant<caf::atom("render")>;
constexpr render_atom render_atom_v{};
using next_frame_atom = caf::atom_constant<caf::atom("next_frame")>;
constexpr next_frame_atom next_frame_atom_v{};
using agent_atom = caf::atom_constant<caf::atom("agent")>;
constexpr agent_atom agent_atom_v{};
using metrics_atom = caf::atom_constant<caf::atom("metrics")>;
constexpr metrics_atom metrics_atom_v{};
using peers_atom = caf::atom_constant<caf::atom("peers")>;
constexpr peers_atom peers_atom_v{};
using watch_atom = caf::atom_constant<caf::atom("watch")>;
constexpr watch_atom watch_atom_v{};
using lane_atom = caf::atom_constant<caf::atom("lane")>;
constexpr lane_atom lane_atom_v{};
using act_atom = caf::atom_constant<caf::atom("act")>;
constexpr act_atom act_atom_v{};
using best_atom = caf::atom_constant<caf::atom("best")>;
constexpr best_atom best_atom_v{};
using round_atom = caf::atom_constant<caf::atom("round")>;
constexpr round_atom round_atom_v{};
using pbt_atom = caf::atom_constant<caf::atom("pbt")>;
constexpr pbt_atom pbt_atom_v{};
using final_atom = caf::atom_constant<caf::atom("final")>;
constexpr final_atom final_atom_v{};
using snapshot_atom = caf::atom_constant<caf::atom("snapshot")>;
constexpr snapshot_atom snapshot_atom_v{};
using decide_atom = caf::atom_constant<caf::atom("decide")>;
constexpr decide_atom decide_atom_v{};

}  // namespace troupe::actors
