#pragma once
// Who plays whom in a run (its parts: actors/run_builder.hpp): with
// policies:, the policies that play each one's other seats; whose snapshots
// each league holds; and what plays the other seats of a policy's agents'
// games, on this node and on workers.
#include <cstddef>
#include <vector>

#include "actors/agent_actor.hpp"
#include "actors/run_builder.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

// With policies:, the policies that play policy `index`'s other seats: every
// other one, and itself where it draws its seat among its agents (its other
// agents of a game are its own latest parameters'). None without.
std::vector<size_t> rivals_of(const run::run_config& config, const run_parts& run, size_t index);

// Whose snapshots policy `index`'s league holds: its own, or with
// policies: those of the one policy that plays its other seats. Throws
// run::config_error for a league of more than one (run::plan_policies
// refuses those first).
size_t league_source(const run::run_config& config, const run_parts& run, size_t index);

// What plays the other side of policy `index`'s games, for the agents of
// this node and of workers: its self-play pool, or with policies: each
// agent outside its side by the live parameters of the policy that plays it
// (its own, for its agents that are not its seat this episode); none for an
// environment (or a game against env.opponent).
opponent_source opponents_of(const run::run_config& config, const run_parts& run, size_t index);

}  // namespace troupe::actors
