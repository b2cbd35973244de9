#pragma once
// The cost of one environment step: plain C++, no actors, no tensors.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/env.hpp"

namespace troupe::bench {

struct env_bench_result {
  std::string id;
  double ns_per_step = 0.0;       // the median over the repeats
  long steps = 0;                 // timed steps in each repeat
  std::vector<double> repeat_ns;  // ns per step of each repeat, in order
  // A MuJoCo task: the same steps' physics alone (mj_step x frame skip
  // with the same controls from the same states), median and per repeat.
  double physics_ns_per_step = 0.0;
  std::vector<double> repeat_physics_ns;
};

// Steps `environment` `steps` times on this thread with uniformly random
// actions, resetting it whenever an episode ends (the resets are timed too),
// and returns the nanoseconds per step. The actions are drawn before the clock
// starts (a cycle of 4096), so the time is the environment's alone.
double time_env_steps(envs::env& environment, long steps, std::uint64_t seed);

// A MuJoCo task: times its steps as time_env_steps does, recording where
// episodes began and in what state; then replays the same controls from
// those states through MuJoCo alone (mj_resetData, the state and
// mj_forward at each episode's start; mj_step x frame skip per step). Returns {task ns, physics ns} per
// step.
std::pair<double, double> time_mujoco_steps(envs::env& task, long steps, std::uint64_t seed);

// One untimed warm-up of steps / 10, then `repeats` timed runs of `steps`,
// of the environment `config` makes.
env_bench_result bench_env(const envs::env_config& config, long steps, int repeats = 3,
                           std::uint64_t seed = 0);

// The median of `values` (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace troupe::bench
