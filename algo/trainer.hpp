#pragma once
// What a learner actor trains with: one replica's parameters and the rule
// that turns a batch of rollouts into updates of them. algo::learner is the
// one implementation; tests use stand-ins with known gradients.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algo/rollout.hpp"
#include "model/checkpoint.hpp"

namespace troupe::algo {

struct rollout_id {
  std::uint32_t agent_id = 0;
  std::uint64_t sequence = 0;
};

// What training one batch did.
struct train_result {
  bool applied = false;          // at least one update reached the parameters
  bool frozen = false;           // refused: the parameters were frozen (a confirmed solve)
  std::vector<rollout_id> rollouts;  // the batch's, in the order they arrived
  std::int64_t samples = 0;      // the batch's samples, counted once however often trained
  std::int32_t updates = 0;      // updates applied: each moved the version by one
  std::int32_t updates_skipped = 0;  // not finite: never applied
  std::int32_t epochs = 0;       // passes over the batch (A3C: 1; PPO: up to algo.ppo.epochs)
  std::int64_t sample_passes = 0;    // samples trained, summed over the updates
  std::uint64_t version = 0;     // parameter version after the batch
  std::uint64_t lag_sum = 0;     // sum over samples of (version trained - version acted)
  std::uint64_t lag_max = 0;
  // Means over the batch's updates.
  float loss = 0, policy_loss = 0, value_loss = 0, entropy = 0;
  float approx_kl = 0;      // PPO: E[(r - 1) - log r] of the probability ratio r
  float clip_fraction = 0;  // PPO: share of samples whose ratio left [1 - clip, 1 + clip]
  float lr = 0;             // the learning rate the batch trained with
};

class trainer {
 public:
  virtual ~trainer() = default;

  // Rollouts a batch holds (algo.batch_rollouts): the learner actor gathers
  // this many, in arrival order, and trains them together.
  virtual int batch_rollouts() const { return 1; }

  // Throws std::invalid_argument when a rollout cannot be trained (its
  // shapes do not fit the model, an action out of range...): checked as it
  // arrives, before it joins a batch.
  virtual void check(const rollout& r) const = 0;

  // Trains one batch (rollouts that passed check()) into the replica's
  // parameters, each update atomic. When `delta` is not null and an update
  // was applied, it receives the change the batch made to every parameter,
  // flattened in parameters() order, for the other replicas.
  virtual train_result train(std::vector<rollout> batch, std::vector<float>* delta) = 0;

  // Adds another replica's update (its `delta`) to these parameters, as one
  // atomic update. Returns the new version, or nothing when the parameters
  // are frozen and the update was refused.
  virtual std::optional<std::uint64_t> apply_peer_update(const std::vector<float>& delta) = 0;

  // The parameter version now (what a rollout's lag is measured against).
  virtual std::uint64_t version() = 0;

  // The parameters and optimiser state (see model/checkpoint.hpp).
  virtual std::uint64_t save_checkpoint(const std::string& path,
                                        const model::checkpoint_meta& meta) = 0;
};

}  // namespace troupe::algo
