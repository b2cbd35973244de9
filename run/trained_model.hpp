#pragma once
// A trained policy from a run directory (its newest checkpoint, or its best
// one) or a checkpoint file, with the config it was trained with: what `troupe eval`
// scores and `troupe play` shows.
#include <memory>
#include <string>

#include "run/run_config.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model.hpp"

namespace troupe::run {

struct trained_model {
  std::string checkpoint;  // the file loaded
  model::checkpoint_meta meta;
  run_config config;
  std::shared_ptr<model::shared_model> model;
};

// Which checkpoint of a run directory.
enum class which_checkpoint { newest, best };

// A run directory's newest checkpoint, or its best.pt (`best`), or the
// checkpoint file named. A run of several policies (policies:) gives
// `policy`'s, by default its first. Throws config_error saying what is
// missing or damaged (a policy the run has not, naming those it has).
trained_model load_trained_model(const std::string& run_dir_or_checkpoint,
                                 which_checkpoint which = which_checkpoint::newest,
                                 const std::string& policy = "");

// Where `policy`'s files are in the run directory `run_dir` (the run itself
// when it has no policies: and `policy` is empty).
std::string policy_run_dir(const std::string& run_dir, const std::string& policy);

}  // namespace troupe::run
