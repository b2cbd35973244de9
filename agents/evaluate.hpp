#pragma once
// Evaluation: plays episodes with a trained model on the calling thread (no
// actors, no training), sampling actions or taking the most likely ones.
// Episodes run side by side, one batched forward pass per step; episode i's
// result depends only on (seed, i).
#include <cstdint>
#include <random>
#include <vector>

#include "envs/env_config.hpp"
#include "envs/env.hpp"
#include "envs/env_vector.hpp"
#include "model/shared_model.hpp"

namespace troupe::agents {

struct evaluation {
  std::vector<double> returns;
  std::vector<std::int64_t> lengths;
  double return_mean = 0, return_std = 0, length_mean = 0;
};

// Episode i's random stream: its reset seed is the first draw, then its
// sampled actions. It depends only on (seed, i), so `troupe play --seed S`
// plays the episodes that `troupe eval --seed S` scores.
std::mt19937_64 episode_rng(std::uint64_t seed, int episode);

// The action the policy takes given its outputs for one observation (logits,
// or a Gaussian's means with `log_std`), as algo::act_from_policy takes it:
// sampled, or the most likely one when `greedy`; then a Box action is
// clipped to its bounds, as the collector clips what agents send. `legal`:
// a Discrete action's mask (algo/action_mask.hpp), or null.
void choose_action(const model::net_spec& net, const envs::space& action_space,
                   const float* policy, const float* log_std, bool greedy, std::mt19937_64& rng,
                   float* action, const std::uint8_t* legal = nullptr);

// Episodes of environments without a limit end after max_steps_per_episode.
// Plays on `envs`, one episode per environment at a time.
evaluation evaluate(model::shared_model& model, envs::env_vector& envs, int episodes,
                    bool greedy, std::uint64_t seed, std::int64_t max_steps_per_episode = 100000);
// The same on a vector of up to `parallel` environments made for it.
evaluation evaluate(model::shared_model& model, const envs::env_config& env, int episodes,
                    bool greedy, std::uint64_t seed,
                    std::int64_t max_steps_per_episode = 100000, int parallel = 64);

}  // namespace troupe::agents
