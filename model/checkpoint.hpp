#pragma once
// Checkpoints: the parameters, the optimiser state, the parameter version and
// the run's counters in one file, written atomically (temporary file, flush to
// disk, rename), so the newest checkpoint on disk is always complete, and
// sealed with a SHA-256 of its content (model/checkpoint_file.hpp), so a
// damaged one never loads.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/checkpoint_error.hpp"
#include "model/shared_model.hpp"

namespace torch::optim {
class Optimizer;
}

namespace troupe::model {

// What a run needs to continue besides the tensors.
struct checkpoint_meta {
  std::uint64_t version = 0;
  std::int64_t env_steps = 0;
  std::int64_t episodes = 0;
  std::int64_t updates = 0;
  std::int64_t samples_trained = 0;
  double wall_seconds = 0;         // of all earlier segments of the run
  // Starts and resumes of the run so far. Every random stream (action
  // sampling, environment resets) is seeded from run.seed and the segment,
  // so a resumed run draws fresh, reproducible numbers.
  std::uint64_t segment = 0;
  std::string config_yaml;         // the resolved config the run trains with
  // What fresh episodes of exactly these parameters scored (the mean return
  // of `evaluated_episodes` of them): a run's best.pt carries it. 0
  // episodes: never evaluated.
  std::int32_t evaluated_episodes = 0;
  double evaluated_return = 0;
};

// Saves inside the parameters' critical section, so parameters, optimiser
// state and version are one consistent snapshot. `optimizer` may be null.
// Returns the parameter version saved. Throws checkpoint_error when the file
// cannot be written (a full disk: the older file of that name is untouched).
std::uint64_t save_checkpoint(const std::string& path, shared_model& model,
                     torch::optim::Optimizer* optimizer, checkpoint_meta meta);

// Reads only the metadata (validates the whole file: its checksum first).
checkpoint_meta read_checkpoint_meta(const std::string& path);

// Loads parameters (and the optimiser state, when given) into `model`, whose
// architecture must match. Throws checkpoint_error naming the file and what
// is wrong (missing, empty, truncated, changed since written, not a
// checkpoint, another architecture).
checkpoint_meta load_checkpoint(const std::string& path, shared_model& model,
                                torch::optim::Optimizer* optimizer);

}  // namespace troupe::model
