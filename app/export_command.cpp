// troupe export RUN_DIR|CHECKPOINT [--best] --out FILE [--format torchscript]
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/policy_flags.hpp"
#include "catalog/registry.hpp"
#include "model/compute_runtime.hpp"
#include "model/policy_export.hpp"
#include "run/trained_model.hpp"

namespace troupe::app {

namespace {

struct export_options {
  std::string target, out;
  std::string format = "torchscript";
  bool best = false;  // checkpoints/best.pt, not the newest
  policy_flags which;  // --policy, --member
};

void export_policy(const export_options& opts) {
  model::set_compute_threads(1);
  const run::trained_model trained = run::load_trained_model(
      opts.target, opts.best ? run::which_checkpoint::best : run::which_checkpoint::newest, opts.which.chosen());
  const run::run_config& config = trained.config;
  // The environment as it is, before env.observe: the module takes its raw
  // observations and selects inside.
  envs::env_config raw = config.env;
  raw.observe.clear();
  const auto environments = catalog::make_env_vector(raw, 1);
  const envs::env_spec& spec = environments->spec();
  model::policy_metadata meta;
  meta.env_id = config.env.id.text();
  meta.observation_shape = spec.observation.shape;
  meta.observe = config.env.observe;
  for (const envs::space_leaf& leaf : spec.observation.leaves)
    meta.inputs.push_back({leaf.key, leaf.kind, leaf.nvec, leaf.start, leaf.size});
  meta.mask_key = spec.observation_mask_key;
  if (spec.action.continuous_size() > 0) {  // a Box, or a hybrid action's Box part
    meta.action_low = spec.action.low;
    meta.action_high = spec.action.high;
  }
  meta.action_labels = environments->spec().action_labels;
  meta.parameter_version = trained.meta.version;
  meta.troupe_version = TROUPE_VERSION;
  try {
    model::export_torchscript(*trained.model, meta, opts.out);
  } catch (const std::runtime_error& e) {
    throw config_error(e.what());  // an output that cannot be written is bad input
  }
  std::cout << "troupe: exported " << trained.checkpoint << " (parameter version "
            << trained.meta.version << ") to " << opts.out << " ("
            << std::filesystem::file_size(opts.out) << " bytes, TorchScript)" << std::endl;
}

}  // namespace

void add_export_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<export_options>();
  auto* cmd = cli.add_subcommand(
      "export", "write a trained policy as a TorchScript module that PyTorch and LibTorch load without Troupe");
  cmd->add_option("target", opts->target, "run directory (its newest checkpoint) or checkpoint file")
      ->required();
  cmd->add_flag("--best", opts->best, "the run's best policy (checkpoints/best.pt: the one whose fresh episodes scored highest) instead of its newest checkpoint");
  add_policy_flags(*cmd, opts->which);
  cmd->add_option("--out", opts->out, "the file to write")->required();
  cmd->add_option("--format", opts->format, "the format: torchscript")
      ->check(CLI::IsMember({"torchscript"}));
  cmd->callback([opts, &exit_code] {
    export_policy(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
