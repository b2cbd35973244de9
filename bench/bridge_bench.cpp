#include "bench/bridge_bench.hpp"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <stdexcept>

#include "bench/env_bench.hpp"
#include "bridges/python/python_env_vector.hpp"
#include "envs/policy_rollout.hpp"

namespace troupe::bench {

namespace {
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

cpu_set_t one_cpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return set;
}

// Puts `pids` on the first CPU this thread may use and the thread on the
// second; the destructor gives the thread its CPUs back.
class pinning {
 public:
  explicit pinning(const std::vector<int>& pids) {
    if (pthread_getaffinity_np(pthread_self(), sizeof allowed_, &allowed_) != 0)
      throw std::runtime_error("cannot read this thread's CPUs");
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed_)) cpus.push_back(c);
    if (cpus.size() < 2) throw std::invalid_argument("pinning needs two CPUs, this thread has " +
                                                     std::to_string(cpus.size()));
    const cpu_set_t hosts = one_cpu(cpus[0]), self = one_cpu(cpus[1]);
    for (int pid : pids) sched_setaffinity(pid, sizeof hosts, &hosts);
    pthread_setaffinity_np(pthread_self(), sizeof self, &self);
  }
  ~pinning() { pthread_setaffinity_np(pthread_self(), sizeof allowed_, &allowed_); }

 private:
  cpu_set_t allowed_;
};
}  // namespace

bridge_bench_result bench_python_bridge(const envs::env_config& config, int envs, long env_steps,
                                        int repeats, std::uint64_t seed, bool pin) {
  if (repeats < 1 || envs < 1) throw std::invalid_argument("repeats and envs must be at least 1");
  bridges::python::python_env_vector vector(config, envs);
  std::optional<pinning> pinned;
  if (pin) pinned.emplace(vector.host_pids());
  const envs::env_spec& spec = vector.spec();
  const size_t obs_size = spec.observation.flat_size(), action_size = spec.action.flat_size();
  envs::fixed_policy_actions policy(envs::fixed_policy::random, spec.action, seed + 1);
  std::vector<float> actions(size_t(envs) * action_size);
  for (int i = 0; i < envs; ++i)
    std::copy_n(policy.next(), action_size, actions.begin() + i * action_size);
  std::vector<std::uint64_t> seeds(static_cast<size_t>(envs));
  std::mt19937_64 draw(seed);
  for (auto& s : seeds) s = draw();
  std::vector<float> obs(size_t(envs) * obs_size), final_obs(obs.size());
  std::vector<envs::step_result> results(static_cast<size_t>(envs));

  // Wall and CPU seconds of `steps` vector steps through the bridge: the
  // CPU of this thread and of the host processes.
  const auto through_bridge = [&](long steps) {
    vector.reset(seeds.data(), obs.data());
    const double host_cpu = vector.host_cpu_seconds();
    const double thread_cpu = thread_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    for (long t = 0; t < steps; ++t)
      vector.step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = thread_cpu_seconds() - thread_cpu + vector.host_cpu_seconds() - host_cpu;
    return bridges::python::python_env_vector::host_times{wall, cpu};
  };
  const auto alone = [&](long steps) {
    vector.reset(seeds.data(), obs.data());
    return vector.time_alone(actions.data(), seeds.data(), steps);
  };

  bridge_bench_result r;
  r.id = config.id.text();
  r.pinned = pin;
  r.envs = envs;
  r.processes = std::clamp(config.processes_per_agent, 1, envs);
  r.vector_steps = std::max(1L, env_steps / envs);
  const double per_step = 1e9 / (double(r.vector_steps) * envs);
  alone(std::max(1L, r.vector_steps / 10));  // warm-up
  through_bridge(std::max(1L, r.vector_steps / 10));
  for (int i = 0; i < repeats; ++i) {
    const auto a = alone(r.vector_steps);
    const auto b = through_bridge(r.vector_steps);
    r.repeat_alone_ns.push_back(a.seconds * per_step);
    r.repeat_bridge_ns.push_back(b.seconds * per_step);
    r.repeat_cost_ns.push_back(r.repeat_bridge_ns.back() - r.repeat_alone_ns.back());
    r.repeat_alone_cpu_ns.push_back(a.cpu_seconds * per_step);
    r.repeat_bridge_cpu_ns.push_back(b.cpu_seconds * per_step);
    r.repeat_cpu_cost_ns.push_back(r.repeat_bridge_cpu_ns.back() - r.repeat_alone_cpu_ns.back());
  }
  r.alone_ns = median(r.repeat_alone_ns);
  r.bridge_ns = median(r.repeat_bridge_ns);
  r.cost_ns = median(r.repeat_cost_ns);
  r.alone_cpu_ns = median(r.repeat_alone_cpu_ns);
  r.bridge_cpu_ns = median(r.repeat_bridge_cpu_ns);
  r.cpu_cost_ns = median(r.repeat_cpu_cost_ns);
  return r;
}

}  // namespace troupe::bench
