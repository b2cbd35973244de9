#pragma once
// Why a run stopped, and what that means for the command that ran it: the
// one place that says which stops are failures.
#include <cstdint>
#include <string>

namespace troupe::run {

enum class stop_reason : std::uint8_t {
  none,               // still running
  solved,             // run.stop.mean_return reached (and confirmed, if asked)
  env_steps,          // run.stop.env_steps
  wall_seconds,       // run.stop.wall_seconds
  interrupted,        // SIGINT or SIGTERM
  agent_failures,     // more than agents.max_restarts
  checkpoint_failed,  // a checkpoint could not be written (a full disk, say)
  pbt_failed,         // population-based training's driver could not carry out a decision
};

// As summary.json and the log name it ("solved", "env_steps", ...).
inline const char* name_of(stop_reason r) {
  switch (r) {
    case stop_reason::none: return "none";
    case stop_reason::solved: return "solved";
    case stop_reason::env_steps: return "env_steps";
    case stop_reason::wall_seconds: return "wall_seconds";
    case stop_reason::interrupted: return "interrupted";
    case stop_reason::agent_failures: return "agent_failures";
    case stop_reason::checkpoint_failed: return "checkpoint_failed";
    case stop_reason::pbt_failed: return "pbt_failed";
  }
  return "unknown";
}

// The run failed: its command exits with 1. Every other stop is an end the
// user asked for (a target, a budget, an interrupt): exit 0.
inline bool is_failure(stop_reason r) {
  return r == stop_reason::agent_failures || r == stop_reason::checkpoint_failed ||
         r == stop_reason::pbt_failed;
}

}  // namespace troupe::run
