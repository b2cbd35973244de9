#pragma once
// What an agent does, without actors: steps a vector of environments with a
// policy's actions, starts each environment's next episode with the seed its
// seed source gives, carries each environment's recurrent state (zero at
// every episode's start), keeps each episode's return and length, and builds
// the rollouts that training takes (n_steps consecutive steps of every
// environment, time-major). actors/agent_actor.cpp drives one with the
// model-owner's actions; evaluation (agents/evaluate.cpp) with a trained
// model's, without rollouts.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "algo/rollout.hpp"
#include "envs/env_vector.hpp"

namespace troupe::agents {

struct collector_config {
  std::uint32_t agent_id = 0;  // names its rollouts
  int n_steps = 0;             // steps per rollout; 0: no rollouts
  int state_size = 0;          // a recurrent policy's state per environment (0: feed-forward)
};

// An episode that ended at the last step.
struct finished_episode {
  int env = 0;
  double episode_return = 0;
  std::int64_t length = 0;
};

class collector {
 public:
  // The seed of environment `env`'s next episode, asked for one episode
  // ahead (an environment vector resets an ended episode within the step).
  using seed_source = std::function<std::uint64_t(int env)>;

  // Resets every environment of `environments` (which must outlive the
  // collector) for its first episode.
  collector(envs::env_vector& environments, const collector_config& config, seed_source seeds);

  envs::env_vector& environments() { return *envs_; }
  const envs::env_spec& spec() const { return envs_->spec(); }
  int size() const { return k_; }

  // What the policy's next actions are for: every environment's current
  // observation (size() rows), and its recurrent state before it (size()
  // rows of state_size; empty for a feed-forward policy).
  const float* observations() const;
  const std::vector<float>& states() const { return states_; }
  // With spec().has_action_mask: each environment's legal actions now
  // (size() rows of spec().action.choice_count() bytes, algo/action_mask.hpp); else null.
  const std::uint8_t* action_masks() const { return masks_.empty() ? nullptr : masks_.data(); }

  // One step of every environment. `actions`: size() rows as the policy
  // drew them (a rollout keeps them so; the environments get them clipped
  // to a Box's bounds); `logp` and `version`: their log-probabilities and
  // the parameter version that gave them (read for rollouts only);
  // `next_states`: each row's recurrent state after its observation. Returns
  // the rollout this step completed, if one did. Throws when an environment
  // fails, or gives an action mask without a legal action.
  std::optional<algo::rollout> step(const float* actions, const float* logp, std::uint64_t version,
                                    const std::vector<float>& next_states);
  // The episodes that ended at the last step.
  const std::vector<finished_episode>& finished() const { return finished_; }
  // Starts environment e's next episode now (one cut short from outside).
  void restart(int e);

  double episode_return(int e) const { return returns_[size_t(e)]; }
  std::int64_t episode_length(int e) const { return lengths_[size_t(e)]; }
  std::int64_t episodes_finished(int e) const { return episodes_[size_t(e)]; }
  // Steps of the rollout being filled (they are lost if the agent stops).
  int rollout_steps() const { return step_; }

 private:
  float* row(int t);  // observation row t of the rollout being filled
  void start_rollout();
  void read_masks();  // the environments' action masks now, checked

  envs::env_vector* envs_;
  collector_config config_;
  seed_source seeds_;
  int k_ = 0, obs_size_ = 0, action_width_ = 1;
  std::vector<float> own_observations_;  // without rollouts: the current rows
  algo::rollout current_;                 // with rollouts: the one being filled
  std::uint64_t next_sequence_ = 0;
  int step_ = 0;
  std::vector<std::uint64_t> next_seeds_;  // env e's next episode's
  std::vector<float> states_, clipped_, final_observations_;
  std::vector<std::uint8_t> masks_;  // with action masks: size() rows of the action count
  std::vector<envs::step_result> results_;
  std::vector<double> returns_;
  std::vector<std::int64_t> lengths_, episodes_;
  std::vector<finished_episode> finished_;
};

// Clips `rows` actions of `action_space` to its bounds in place: a Box's
// elements (a hybrid action's Box part) to [low, high]; discrete indices are left as they are.
void clip_to_space(const envs::space& action_space, float* actions, int rows);

}  // namespace troupe::agents
