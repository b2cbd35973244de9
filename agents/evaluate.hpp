#pragma once
// Evaluation: plays episodes with a trained model on the calling thread (no
// actors, no training), sampling actions or taking the most likely ones.
// Up to `parallel` episodes run side by side, one batched forward pass per
// step; episode i's result depends only on (seed, i).
#include <cstdint>
#include <vector>

#include "envs/env_config.hpp"
#include "model/shared_model.hpp"

namespace troupe::agents {

struct evaluation {
  std::vector<double> returns;
  std::vector<std::int64_t> lengths;
  double return_mean = 0, return_std = 0, length_mean = 0;
};

// Episodes of environments without a limit end after max_steps_per_episode.
evaluation evaluate(model::shared_model& model, const envs::env_config& env, int episodes,
                    bool greedy, std::uint64_t seed,
                    std::int64_t max_steps_per_episode = 100000, int parallel = 64);

}  // namespace troupe::agents
