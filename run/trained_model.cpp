#include "run/trained_model.hpp"

#include <filesystem>

#include "run/config_loader.hpp"
#include "run/component_configs.hpp"
#include "run/run_directory.hpp"

namespace troupe::run {

trained_model load_trained_model(const std::string& target, which_checkpoint which) {
  trained_model out;
  out.checkpoint = target;
  const bool directory = std::filesystem::is_directory(target);
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
