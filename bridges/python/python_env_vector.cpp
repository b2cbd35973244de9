#include "bridges/python/python_env_vector.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "bridges/python/host_hello.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"

namespace troupe::bridges::python {

using nlohmann::json;

python_env_vector::python_env_vector(const env_config& config, int count)
    : python_env_vector(config, start_environment_hosts(config, count, host_serves::environments)) {}

python_env_vector::python_env_vector(const env_config& config, host_group hosts) : hosts_(std::move(hosts)) {
  for (const auto& s : hosts_.shares) count_ += s.count;
  const host_hello described = read_hello(config.id.text(), hosts_.hello);
  spec_ = described.spec;
  can_render_ = described.can_render;
  obs_size_ = spec_.observation.flat_size();
  action_size_ = spec_.action.flat_size();
  for (auto& s : hosts_.shares) {
    s.memory->map(region_layout::for_envs(s.count, obs_size_, action_size_,
                                          spec_.has_action_mask ? spec_.action.choice_count() : 0));
    s.process->send(host_op::map, 0, s.memory->layout().json());
  }
  collect("mapping shared memory", [](share&, const std::string&) {});
}

python_env_vector::~python_env_vector() = default;

python_env_vector::share& python_env_vector::share_of(int i, int& local) {
  return hosts_.share_of(i, local);
}

void python_env_vector::reset(const std::uint64_t* seeds, float* observations) {
  for (auto& s : hosts_.shares) {
    std::copy_n(seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::reset);
  }
  collect("resetting", [&](share& s, const std::string&) {
    std::copy_n(s.memory->observations(), size_t(s.count) * obs_size_,
                observations + size_t(s.first) * obs_size_);
  });
}

void python_env_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  int local = 0;
  share& s = share_of(i, local);
  s.memory->seeds()[local] = seed;
  s.process->send(host_op::reset_one, std::uint32_t(local));
  const host_reply reply = s.process->receive(host_answer_timeout());
  if (!reply.ok())
    throw std::runtime_error("the Python environment (" + s.process->name() +
                             ") raised an exception while resetting:\n" + reply.payload);
  std::copy_n(s.memory->observations() + size_t(local) * obs_size_, obs_size_, observation);
}

void python_env_vector::step(const float* actions, const std::uint64_t* reset_seeds,
                             float* observations, step_result* results,
                             float* final_observations) {
  for (auto& s : hosts_.shares) {
    std::copy_n(actions + size_t(s.first) * action_size_, size_t(s.count) * action_size_,
                s.memory->actions());
    if (reset_seeds) std::copy_n(reset_seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::step, reset_seeds ? 1 : 0);
  }
  collect("stepping", [&](share& s, const std::string&) {
    shared_region& m = *s.memory;
    std::copy_n(m.observations(), size_t(s.count) * obs_size_,
                observations + size_t(s.first) * obs_size_);
    for (int j = 0; j < s.count; ++j) {
      step_result& r = results[s.first + j];
      r.reward = m.rewards()[j];
      r.terminated = m.terminated()[j] != 0;
      r.truncated = m.truncated()[j] != 0;
      if (r.terminated || r.truncated)
        std::copy_n(m.final_observations() + size_t(j) * obs_size_, obs_size_,
                    final_observations + size_t(s.first + j) * obs_size_);
    }
  });
}

void python_env_vector::action_masks(std::uint8_t* masks) const {
  const size_t n = size_t(spec_.action.choice_count());
  for (const auto& s : hosts_.shares)
    std::copy_n(s.memory->action_masks(), size_t(s.count) * n, masks + size_t(s.first) * n);
}

bool python_env_vector::render(int i, rgb_frame& frame) {
  if (!can_render_) return false;
  hosts_.render(i, frame);
  return true;
}

python_env_vector::host_times python_env_vector::time_alone(const float* actions,
                                                            const std::uint64_t* seeds, long steps) {
  for (auto& s : hosts_.shares) {
    std::copy_n(actions + size_t(s.first) * action_size_, size_t(s.count) * action_size_,
                s.memory->actions());
    std::copy_n(seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::bench, std::uint32_t(steps));
  }
  host_times times;
  collect("benchmarking", [&](share&, const std::string& payload) {
    const json t = json::parse(payload);
    times.seconds = std::max(times.seconds, t.at("seconds").get<double>());
    times.cpu_seconds += t.at("cpu_seconds").get<double>();
  });
  return times;
}

double python_env_vector::host_cpu_seconds() {
  for (auto& s : hosts_.shares) s.process->send(host_op::cpu_time);
  double total = 0.0;
  collect("reading its CPU time", [&](share&, const std::string& payload) {
    total += json::parse(payload).at("cpu_seconds").get<double>();
  });
  return total;
}

std::vector<int> python_env_vector::host_pids() const {
  std::vector<int> pids;
  for (const auto& s : hosts_.shares) pids.push_back(int(s.process->pid()));
  return pids;
}

}  // namespace troupe::bridges::python
