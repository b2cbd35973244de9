#pragma once
// Episodes of a fixed policy on one environment: plain C++, no actors, no
// tensors. Gives baselines (what does acting at random score?) and a quick
// check that an environment runs end to end.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "envs/env.hpp"

namespace troupe::envs {

// `random`: uniform over a Discrete space, uniform within the bounds of a Box.
// `noop`: action 0 for a Discrete space, zeros for a Box.
enum class fixed_policy { random, noop };

// "random" or "noop"; throws std::invalid_argument naming the bad name.
fixed_policy parse_fixed_policy(const std::string& name);
std::string to_string(fixed_policy policy);

// The actions of a fixed policy for one action space. Random actions draw
// from a std::mt19937_64 seeded with `seed`. Throws std::invalid_argument for
// a Box with an unbounded element under the random policy.
class fixed_policy_actions {
 public:
  fixed_policy_actions(fixed_policy policy, const space& action_space, std::uint64_t seed);
  // spec().action.flat_size() values, valid until the next call.
  const float* next();
  // The same for the state `e` is in: with an action mask (spec().
  // has_action_mask), random is uniform over its legal actions and noop is
  // the first legal one.
  const float* next_for(const env& e);

 private:
  void draw_box();  // random values for the Box part, within its bounds

  fixed_policy policy_;
  space space_;
  std::vector<float> action_;
  std::mt19937_64 rng_;
  std::vector<std::uint8_t> legal_;
};

// Mean, population standard deviation, minimum and maximum; all 0 when empty.
struct summary_stats {
  double mean = 0.0, std = 0.0, min = 0.0, max = 0.0;
};
summary_stats summarize(const std::vector<double>& values);

struct rollout_options {
  fixed_policy policy = fixed_policy::random;
  int episodes = 10;
  std::uint64_t seed = 0;
  // Ends an episode that has neither terminated nor been truncated by the
  // environment after this many steps, so environments without an episode
  // limit (MinAtar) still finish. Counted in `episodes_cut`.
  int max_steps_per_episode = 100000;
};

struct rollout_result {
  std::vector<double> returns;  // undiscounted, one per episode
  std::vector<int> lengths;     // steps, one per episode
  int episodes_cut = 0;         // episodes ended by max_steps_per_episode
  summary_stats return_stats;
  summary_stats length_stats;
};

// Runs `options.episodes` episodes on `environment`. Episode i resets with the
// (i+1)-th draw of std::mt19937_64(options.seed); random actions draw from a
// generator of their own, seeded with options.seed + 1.
rollout_result run_policy_rollout(env& environment, const rollout_options& options);

}  // namespace troupe::envs
