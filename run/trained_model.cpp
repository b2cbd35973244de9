#include "run/trained_model.hpp"

#include <filesystem>

#include "run/config_loader.hpp"
#include "run/component_configs.hpp"
#include "run/run_directory.hpp"

namespace troupe::run {

std::string policy_run_dir(const std::string& run_dir, const std::string& policy) {
  const run_directory dir{run_dir};
  std::error_code ec;
  if (!std::filesystem::exists(dir.config_file(), ec)) {
    if (policy.empty()) return run_dir;
    throw config_error(run_dir + ": --policy " + policy + ": not a run directory (no config.yaml)");
  }
  const run_config config = load_config(dir.config_file());
  if (config.policies.empty()) {
    if (policy.empty()) return run_dir;
    throw config_error(run_dir + ": --policy " + policy + ": the run has one policy, without policies: (leave --policy off)");
  }
  std::string names;
  for (const auto& p : config.policies) {
    if (p.name == policy || policy.empty()) return dir.policy_dir(p.name);
    names += (names.empty() ? "" : ", ") + p.name;
  }
  throw config_error(run_dir + ": --policy " + policy + ": no such policy (the run's are " + names + ")");
}

trained_model load_trained_model(const std::string& given, which_checkpoint which, const std::string& policy) {
  const bool directory = std::filesystem::is_directory(given);
  if (!directory && !policy.empty())
    throw config_error(given + ": --policy takes a run directory, not a checkpoint file");
  const std::string target = directory ? policy_run_dir(given, policy) : given;
  trained_model out;
  out.checkpoint = target;
  if (which == which_checkpoint::best) {
    if (!directory)
      throw config_error(target + ": --best takes a run directory (its checkpoints/best.pt), not a file");
    out.checkpoint = run_directory{target}.checkpoints().best();
    if (!std::filesystem::exists(out.checkpoint))
      throw config_error(target + ": no best policy (" + out.checkpoint +
                         "): the run kept none yet (checkpoint.best.episodes)");
  } else if (directory) {
    out.checkpoint = run_directory{target}.checkpoints().newest();
    if (out.checkpoint.empty())
      throw config_error(target + ": no checkpoint in " + target + "/checkpoints");
  }
  try {
    out.meta = model::read_checkpoint_meta(out.checkpoint);
  } catch (const model::checkpoint_error& e) {
    throw config_error(e.what());
  }
  out.config = load_config_text(out.meta.config_yaml, out.checkpoint + " (its config)");
  out.model = model::make_shared_model(
      net_spec_for(out.config, env_spec_for(out.config, out.checkpoint + " (its config)")),
      out.config.run.seed);
  try {
    model::load_checkpoint(out.checkpoint, *out.model, nullptr);
  } catch (const model::checkpoint_error& e) {
    throw config_error(e.what());
  }
  return out;
}

}  // namespace troupe::run
