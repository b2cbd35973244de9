#pragma once
// A rollout: n_steps consecutive steps of each of an agent's n_envs
// environments, time-major (sample i = t * n_envs + e).
#include <cstdint>
#include <string>
#include <vector>

namespace troupe::algo {

struct rollout {
  std::uint32_t agent_id = 0;
  std::uint64_t sequence = 0;  // per agent, counts from 0
  std::int32_t n_steps = 0;
  std::int32_t n_envs = 0;
  std::int32_t obs_size = 0;
  std::int32_t action_size = 1;
  std::int32_t state_size = 0;  // a recurrent policy's state per env; 0: feed-forward
  std::int32_t mask_size = 0;   // actions an action mask row covers; 0: no masks
  // (n_steps + 1) * n_envs observations: row t is what step t acted on, row
  // n_steps the observations after the last step (bootstrap states).
  std::vector<float> observations;
  // n_envs rows of state_size: each env's recurrent state before row 0's
  // observation, where training unrolls the core from (empty: feed-forward).
  std::vector<float> initial_states;
  std::vector<float> actions;          // n_steps * n_envs * action_size
  std::vector<float> rewards;          // n_steps * n_envs
  std::vector<std::uint8_t> terminated;
  std::vector<std::uint8_t> truncated;
  std::vector<float> behaviour_logp;   // log-probability of the action when acted
  // n_steps * n_envs rows of mask_size: the legal actions of each sample's
  // state, which the behaviour policy sampled under (algo/action_mask.hpp).
  std::vector<std::uint8_t> action_masks;
  std::vector<std::uint64_t> behaviour_version;  // parameter version acted with
  // The observation that ended each truncated episode (the state the time
  // limit cut off, before the reset), in sample order.
  std::vector<float> truncation_observations;

  std::int64_t samples() const { return std::int64_t{n_steps} * n_envs; }
};

// What is wrong with a rollout's arrays against its own shape (sizes, and the
// truncation observations against the truncation flags); empty when nothing.
// Whoever receives rollouts checks this before trusting them.
std::string rollout_shape_error(const rollout& r);

// Why r's action masks, split among the action's components as `heads`
// says (each one's number of choices), are not usable or its actions not
// all legal under them; "" when they are. rollout_shape_error checks a
// one-component rollout so; the learner and the cluster gateway, which know
// the components, check the others.
std::string rollout_mask_error(const rollout& r, const std::vector<int>& heads);

}  // namespace troupe::algo
