#pragma once
// The A3C learner: turns a rollout into one gradient update of the shared
// model. Gradients are computed outside the parameters' critical section (a
// forward pass only reads); the optimiser step runs inside it, so each update
// is atomic and moves the parameter version forward by exactly one.
#include <cstdint>
#include <memory>

#include "agents/algo_config.hpp"
#include "agents/rollout.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model.hpp"

namespace troupe::agents {

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

class a3c_learner {
 public:
  a3c_learner(std::shared_ptr<model::shared_model> model, const algo_config& config);
  ~a3c_learner();
  a3c_learner(const a3c_learner&) = delete;
  a3c_learner& operator=(const a3c_learner&) = delete;

  // Throws std::invalid_argument when the rollout's shapes do not fit the model.
  train_result train(const rollout& r);

  // The model and this learner's optimiser state (see model/checkpoint.hpp).
  std::uint64_t save_checkpoint(const std::string& path, const model::checkpoint_meta& meta);
  model::checkpoint_meta restore(const std::string& path);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace troupe::agents
