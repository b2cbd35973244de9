#pragma once
// The A3C learner: turns a rollout into one gradient update of the shared
// model. Gradients are computed outside the parameters' critical section (a
// forward pass only reads); the optimiser step runs inside it, so each update
// is atomic and moves the parameter version forward by exactly one.
#include <cstdint>
#include <memory>

#include "algo/algo_config.hpp"
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model.hpp"

namespace troupe::algo {

class a3c_learner final : public trainer {
 public:
  a3c_learner(std::shared_ptr<model::shared_model> model, const algo_config& config);
  ~a3c_learner();
  a3c_learner(const a3c_learner&) = delete;
  a3c_learner& operator=(const a3c_learner&) = delete;

  // Throws std::invalid_argument when the rollout's shapes do not fit the model.
  train_result train(const rollout& r, std::vector<float>* delta = nullptr) override;
  std::optional<std::uint64_t> apply_peer_update(const std::vector<float>& delta) override;

  // The model and this learner's optimiser state (see model/checkpoint.hpp).
  std::uint64_t save_checkpoint(const std::string& path,
                                const model::checkpoint_meta& meta) override;
  model::checkpoint_meta restore(const std::string& path);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace troupe::algo
