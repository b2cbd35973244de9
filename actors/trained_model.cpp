#include "actors/trained_model.hpp"

#include <filesystem>

#include "actors/config_loader.hpp"
#include "actors/run_builder.hpp"
#include "actors/run_directory.hpp"

namespace troupe::actors {

trained_model load_trained_model(const std::string& target) {
  trained_model out;
  out.checkpoint = target;
  if (std::filesystem::is_directory(target)) {
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

}  // namespace troupe::actors
