#pragma once
// An agent's Python environments (env.id python:MODULE:CALLABLE or
// gymnasium:ENV_ID), stepped in env.processes_per_agent processes of their
// own: Python never runs in Troupe's process, so no interpreter lock
// serialises the agents. Each process holds a contiguous share of the
// environments and steps all of them per command; the processes of one
// vector step concurrently. Actions, seeds, observations, rewards and flags
// pass through shared memory (bridges/python/shared_region.hpp).
//
// The spaces are read from the first environment once, when the processes
// start: Box or Discrete (a Discrete observation arrives one-hot, as a Box
// of n zeros and ones); anything else is refused with an env_key_error, as are
// an import that fails and a missing callable. An exception raised by an
// environment later throws std::runtime_error carrying its Python
// traceback; so does a process that dies.
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "bridges/python/host_group.hpp"
#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::env_spec;
using envs::env_vector;
using envs::rgb_frame;
using envs::step_result;

class python_env_vector final : public env_vector {
 public:
  python_env_vector(const env_config& config, int count);
  // Hosts started already, whose hello describes single-agent environments.
  python_env_vector(const env_config& config, host_group hosts);
  ~python_env_vector() override;

  const env_spec& spec() const override { return spec_; }
  int size() const override { return count_; }
  void reset(const std::uint64_t* seeds, float* observations) override;
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  // The masks the host wrote with the last reset or step (info["action_mask"]).
  void action_masks(std::uint8_t* masks) const override;
  bool can_render() const override { return can_render_; }
  bool render(int i, rgb_frame& frame) override;

  // For the bridge benchmark (bench/bridge_bench.hpp). What the processes
  // take to step their environments `steps` times on their own (no shared
  // memory, no socket) with `actions`, resetting ended episodes with
  // `seeds`: the environments' own cost. Wall seconds of the slowest
  // process; CPU seconds of all.
  struct host_times {
    double seconds = 0.0, cpu_seconds = 0.0;
  };
  host_times time_alone(const float* actions, const std::uint64_t* seeds, long steps);
  // CPU seconds the processes have used so far, all together.
  double host_cpu_seconds();
  // The processes, to place them on CPUs.
  std::vector<int> host_pids() const;

 private:
  using share = host_share;
  share& share_of(int i, int& local);
  void collect(const char* what, const std::function<void(share&, const std::string&)>& use) {
    hosts_.collect(what, use);
  }

  host_group hosts_;
  env_spec spec_;
  int count_ = 0;
  int obs_size_ = 0, action_size_ = 0;
  bool can_render_ = false;
};

}  // namespace troupe::bridges::python
