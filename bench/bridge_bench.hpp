#pragma once
// What the Python bridge (bridges/python/) costs per environment step beyond the
// Python environment's own step: the same environments, actions and reset
// seeds stepped once through the bridge (shared memory, one socket round trip
// per vector step, the host's copying) and once by the host process alone.
//
// Two measures of it: wall time, which on a busy machine also holds the time
// the two processes wait for a core after waking each other (twice a
// vector step); and CPU time (the host process's plus the stepping thread's),
// the work the bridge adds, which other load on the machine leaves alone.
#include <cstdint>
#include <string>
#include <vector>

#include "envs/env_config.hpp"

namespace troupe::bench {

struct bridge_bench_result {
  std::string id;
  bool pinned = false;   // the stepping thread and the processes each on a CPU of their own
  int envs = 0;          // in the vector
  int processes = 0;     // they are spread over
  long vector_steps = 0; // timed steps of the whole vector per repeat
  // Nanoseconds per environment step, medians over the repeats: wall time
  // alone and through the bridge, and their difference; the same in CPU time.
  double alone_ns = 0.0, bridge_ns = 0.0, cost_ns = 0.0;
  double alone_cpu_ns = 0.0, bridge_cpu_ns = 0.0, cpu_cost_ns = 0.0;
  std::vector<double> repeat_alone_ns, repeat_bridge_ns, repeat_cost_ns;
  std::vector<double> repeat_alone_cpu_ns, repeat_bridge_cpu_ns, repeat_cpu_cost_ns;
};

// `envs` environments of `config` (a python: or gymnasium: id) in
// config.processes_per_agent processes; each repeat times `env_steps`
// environment steps alone, then through the bridge, both from the same
// resets, so the environments do exactly the same work. A fixed random
// action per environment, reset seeds drawn from `seed`.
//
// `pin`: the processes on the first CPU this thread may use, this thread on
// the second (std::invalid_argument with fewer than two). Left to the
// scheduler, a process and the thread that wake each other may hop between
// cores every step, and on some machines (virtual ones) that costs more than
// the bridge itself: pinned, the measure is the bridge's alone.
bridge_bench_result bench_python_bridge(const envs::env_config& config, int envs, long env_steps,
                                        int repeats = 3, std::uint64_t seed = 0, bool pin = false);

}  // namespace troupe::bench
