#pragma once
// What a learner actor trains with: one replica's parameters and the rule
// that turns a rollout into an update of them. The A3C learner is the one
// implementation; tests use stand-ins with known gradients.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algo/rollout.hpp"
#include "model/checkpoint.hpp"

namespace troupe::algo {

struct train_result {
  bool applied = false;          // false: not finite (skipped), or refused (frozen)
  bool frozen = false;           // refused: the parameters were frozen (a confirmed solve)
  std::uint32_t agent_id = 0;    // the rollout this update trained
  std::uint64_t sequence = 0;
  std::int64_t samples = 0;
  std::uint64_t version = 0;     // parameter version after this update
  std::uint64_t lag_sum = 0;     // sum over samples of (version trained - version acted)
  std::uint64_t lag_max = 0;
  float loss = 0, policy_loss = 0, value_loss = 0, entropy = 0;
};

class trainer {
 public:
  virtual ~trainer() = default;

  // Trains one rollout into the replica's parameters: one atomic update.
  // When `delta` is not null and the update was applied, it receives the
  // change the update made to every parameter, flattened in parameters()
  // order, for the other replicas. Throws std::invalid_argument when the
  // rollout's shapes do not fit the model.
  virtual train_result train(const rollout& r, std::vector<float>* delta) = 0;

  // Adds another replica's update (its `delta`) to these parameters, as one
  // atomic update. Returns the new version, or nothing when the parameters
  // are frozen and the update was refused.
  virtual std::optional<std::uint64_t> apply_peer_update(const std::vector<float>& delta) = 0;

  // The parameters and optimiser state (see model/checkpoint.hpp).
  virtual std::uint64_t save_checkpoint(const std::string& path,
                                        const model::checkpoint_meta& meta) = 0;
};

}  // namespace troupe::algo
