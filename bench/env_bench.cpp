#include "bench/env_bench.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>

#include "envs/mujoco/mujoco_task.hpp"
#include "envs/policy_rollout.hpp"

namespace troupe::bench {

namespace {
constexpr size_t action_cycle = 4096;

// The actions a timed loop steps with, drawn before its clock starts: a
// cycle of `action_cycle` uniformly random ones.
std::vector<float> random_action_cycle(const envs::env_spec& spec, std::uint64_t seed) {
  const size_t action_size = spec.action.flat_size();
  envs::fixed_policy_actions policy(envs::fixed_policy::random, spec.action, seed + 1);
  std::vector<float> actions(action_cycle * action_size);
  for (size_t i = 0; i < action_cycle; ++i)
    std::copy_n(policy.next(), action_size, actions.begin() + i * action_size);
  return actions;
}
}  // namespace

double time_env_steps(envs::env& environment, long steps, std::uint64_t seed) {
  if (steps < 1) throw std::invalid_argument("steps must be at least 1");
  const envs::env_spec& spec = environment.spec();
  const size_t action_size = spec.action.flat_size();
  const std::vector<float> actions = random_action_cycle(spec, seed);

  std::vector<float> observation(spec.observation.flat_size());
  std::mt19937_64 reset_seeds(seed);
  environment.reset(reset_seeds(), observation.data());
  double reward_sum = 0.0;  // used below, so the steps cannot be optimised away
  // An environment with an action mask is asked for it at every step (a
  // cost of stepping it), and each drawn component moves on to its next
  // legal choice.
  const std::vector<int> heads = spec.action.categories();
  std::vector<std::uint8_t> legal(spec.has_action_mask ? size_t(spec.action.choice_count()) : 0);
  std::vector<float> masked_action(action_size);
  const auto start = std::chrono::steady_clock::now();
  for (long t = 0; t < steps; ++t) {
    const float* action = actions.data() + (size_t(t) % action_cycle) * action_size;
    if (!legal.empty()) {
      environment.action_mask(legal.data());
      for (size_t j = 0, offset = 0; j < heads.size(); offset += size_t(heads[j++])) {
        const int n = heads[j];
        int a = int(action[j]);
        for (int k = 0; k < n && !legal[offset + size_t(a)]; ++k) a = (a + 1) % n;
        masked_action[j] = float(a);
      }
      action = masked_action.data();
    }
    const envs::step_result r = environment.step(action, observation.data());
    reward_sum += r.reward;
    if (r.terminated || r.truncated) environment.reset(reset_seeds(), observation.data());
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  volatile double sink = reward_sum;
  (void)sink;
  return std::chrono::duration<double, std::nano>(elapsed).count() / double(steps);
}

std::pair<double, double> time_mujoco_steps(envs::env& environment, long steps, std::uint64_t seed) {
  auto* task = dynamic_cast<envs::mujoco::mujoco_task*>(&environment);
  if (!task) throw std::invalid_argument(environment.spec().id + " is not a MuJoCo task");
  if (steps < 1) throw std::invalid_argument("steps must be at least 1");
  const envs::env_spec& spec = environment.spec();
  const mjModel& m = task->model();
  const size_t action_size = spec.action.flat_size();
  const std::vector<float> actions = random_action_cycle(spec, seed);
  struct episode_start {
    long step;
    std::vector<double> qpos, qvel;
  };
  std::vector<episode_start> starts;
  auto record = [&](long step) {
    const mjData& d = task->data();
    starts.push_back({step, std::vector<double>(d.qpos, d.qpos + m.nq), std::vector<double>(d.qvel, d.qvel + m.nv)});
  };

  std::vector<float> observation(spec.observation.flat_size());
  std::mt19937_64 reset_seeds(seed);
  environment.reset(reset_seeds(), observation.data());
  record(0);
  starts.reserve(size_t(steps) / 8 + 2);
  double reward_sum = 0.0;
  auto start = std::chrono::steady_clock::now();
  for (long t = 0; t < steps; ++t) {
    const float* action = actions.data() + (size_t(t) % action_cycle) * action_size;
    const envs::step_result r = environment.step(action, observation.data());
    reward_sum += r.reward;
    if (r.terminated || r.truncated) {
      environment.reset(reset_seeds(), observation.data());
      record(t + 1);
    }
  }
  const double task_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();

  // The physics alone: the same controls, from the same episode starts,
  // each begun as v4's reset begins one in MuJoCo (mj_resetData, the state,
  // mj_forward).
  mjData* d = mj_makeData(&m);
  size_t next = 0;
  start = std::chrono::steady_clock::now();
  for (long t = 0; t < steps; ++t) {
    if (next < starts.size() && starts[next].step == t) {
      mj_resetData(&m, d);
      std::copy(starts[next].qpos.begin(), starts[next].qpos.end(), d->qpos);
      std::copy(starts[next].qvel.begin(), starts[next].qvel.end(), d->qvel);
      mj_forward(&m, d);
      ++next;
    }
    const float* action = actions.data() + (size_t(t) % action_cycle) * action_size;
    for (size_t i = 0; i < action_size; ++i) d->ctrl[i] = action[i];
    for (int k = 0; k < task->frame_skip(); ++k) mj_step(&m, d);
  }
  const double physics_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  reward_sum += d->qpos[0];
  mj_deleteData(d);
  volatile double sink = reward_sum;
  (void)sink;
  return {task_ns / double(steps), physics_ns / double(steps)};
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

env_bench_result bench_env(const envs::env_config& config, long steps, int repeats,
                           std::uint64_t seed) {
  if (repeats < 1) throw std::invalid_argument("repeats must be at least 1");
  const auto environment = catalog::make_env(config);
  env_bench_result result;
  result.id = config.id.text();
  result.steps = steps;
  const bool mujoco = dynamic_cast<envs::mujoco::mujoco_task*>(environment.get()) != nullptr;
  time_env_steps(*environment, std::max(1L, steps / 10), seed);
  for (int i = 0; i < repeats; ++i) {
    if (mujoco) {
      const auto [task_ns, physics_ns] = time_mujoco_steps(*environment, steps, seed + 2 * (i + 1));
      result.repeat_ns.push_back(task_ns);
      result.repeat_physics_ns.push_back(physics_ns);
    } else {
      result.repeat_ns.push_back(time_env_steps(*environment, steps, seed + 2 * (i + 1)));
    }
  }
  result.ns_per_step = median(result.repeat_ns);
  if (mujoco) result.physics_ns_per_step = median(result.repeat_physics_ns);
  return result;
}

}  // namespace troupe::bench
