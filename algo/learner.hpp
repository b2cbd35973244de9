#pragma once
// The learner: turns batches of rollouts into gradient updates of the shared
// model, by A3C (algo/a3c_update.cpp) or PPO (algo/ppo_update.cpp), as
// algo.kind says. Gradients are computed outside the parameters' critical
// section (a forward pass only reads); each optimiser step runs inside it,
// so every update is atomic and moves the parameter version forward by
// exactly one. It also keeps what both algorithms share: the optimiser and
// its learning-rate schedule, reward normalisation, and folding the batch's
// observations into the network's normalisation statistics.
#include <cstdint>
#include <memory>

#include "algo/algo_config.hpp"
#include "algo/learned_state.hpp"
#include "algo/learner_config.hpp"
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"
#include "model/checkpoint.hpp"
#include "model/net_spec.hpp"
#include "model/shared_model.hpp"

namespace troupe::algo {

// What the A3C and PPO updates share (algo/learner_core.hpp).
struct learner_core;

class learner final : public trainer {
 public:
  learner(std::shared_ptr<model::shared_model> model, const learner_config& config);
  learner(std::shared_ptr<model::shared_model> model, const algo_config& algo)
      : learner(std::move(model), learner_config{algo, {}, 0, 1}) {}
  ~learner();
  learner(const learner&) = delete;
  learner& operator=(const learner&) = delete;

  int batch_rollouts() const override;
  // Whether PPO's minibatch steps (algo/mlp_ppo_step.hpp) or A3C's updates
  // (algo/mlp_a3c_step.hpp) run by hand rather than on LibTorch's autograd.
  bool trains_by_hand() const;
  // Throws std::invalid_argument when the rollout's shapes do not fit the model.
  void check(const rollout& r) const override;
  // Checks every rollout first (std::invalid_argument: nothing is trained).
  train_result train(std::vector<rollout> batch, std::vector<float>* delta = nullptr) override;
  // One rollout as a batch of its own.
  train_result train_one(const rollout& r) { return train(std::vector<rollout>{r}); }
  std::optional<std::uint64_t> apply_peer_update(const std::vector<float>& delta) override;
  std::uint64_t version() override;

  // The model and this learner's optimiser state (see model/checkpoint.hpp).
  std::uint64_t save_checkpoint(const std::string& path,
                                const model::checkpoint_meta& meta) override;
  // Also continues the learning-rate schedule from the checkpoint's env steps.
  model::checkpoint_meta restore(const std::string& path);

  // Population-based training's exploit: a copy of what this learner has
  // learned (algo/learned_state.hpp: parameters and buffers, normalisation
  // statistics, optimiser state), inside its parameters' critical section
  // (where its optimiser steps too). Call it on the thread that trains, as
  // adopt and train: then it falls between two batches (a batch's updates
  // and the statistics it folds in afterwards change the model in separate
  // sections), so no batch is half in it. A plain value: it goes to another
  // member's learner by message (actors/learner_actor.hpp's snapshot_atom).
  learned_state export_state();
  // Takes `state` in place of its own, inside its own critical section, as
  // one update: the version moves on by one (from its own), so rollouts
  // acted on before it count as that much older. Call it on the thread that
  // trains (between batches). Throws std::invalid_argument, with nothing
  // changed, for the state of another network or optimiser.
  std::uint64_t adopt(const learned_state& state);
  // A checksum of everything `state` holds but its version: parameters,
  // buffers, normalisation statistics, optimiser state.
  static std::uint64_t fingerprint(const learned_state& state);

  // algo/hyperparameters.hpp's keys, from the next batch on; throws
  // std::invalid_argument for a key that cannot change.
  void set_hyperparameter(const std::string& key, double value);
  double hyperparameter(const std::string& key) const;

 private:
  std::unique_ptr<learner_core> core_;
};

}  // namespace troupe::algo
