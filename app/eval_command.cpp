// troupe eval RUN_DIR|CHECKPOINT [--best] --episodes N [--greedy] [--seed S] [--json FILE]
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "agents/evaluate.hpp"
#include "app/commands.hpp"
#include "run/config_loader.hpp"
#include "run/trained_model.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::app {

namespace {

struct eval_options {
  std::string target, json_path;
  int episodes = 100;
  bool greedy = false;
  bool best = false;  // checkpoints/best.pt, not the newest
  std::uint64_t seed = 12345;
};

void eval(const eval_options& opts) {
  model::set_compute_threads(1);
  const run::trained_model trained = run::load_trained_model(
      opts.target, opts.best ? run::which_checkpoint::best : run::which_checkpoint::newest);
  const std::string& path = trained.checkpoint;
  const model::checkpoint_meta& meta = trained.meta;
  const run::run_config& config = trained.config;
  auto& model = trained.model;
  const agents::evaluation result =
      agents::evaluate(*model, config.env, opts.episodes, opts.greedy, opts.seed);
  nlohmann::json j{{"checkpoint", path},          {"env", config.env.id},
                   {"version", meta.version},     {"greedy", opts.greedy},
                   {"seed", opts.seed},           {"episodes", opts.episodes},
                   {"return_mean", result.return_mean}, {"return_std", result.return_std},
                   {"length_mean", result.length_mean}};
  std::cout << j.dump(2) << std::endl;
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << j.dump(2) << "\n";
    if (!out) throw config_error(opts.json_path + ": cannot be written");
  }
}

}  // namespace

void add_eval_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<eval_options>();
  auto* cmd = cli.add_subcommand("eval", "evaluate a trained policy from a run or checkpoint");
  cmd->add_option("target", opts->target, "run directory or checkpoint file")->required();
  cmd->add_flag("--best", opts->best, "the run's best policy (checkpoints/best.pt: the one whose fresh episodes scored highest) instead of its newest checkpoint");
  cmd->add_option("--episodes", opts->episodes, "episodes to play")->check(CLI::Range(1, 10000000));
  cmd->add_flag("--greedy", opts->greedy, "take the most likely action (the mean for Gaussians)");
  cmd->add_option("--seed", opts->seed, "seeds the environments and action sampling");
  cmd->add_option("--json", opts->json_path, "also write the result to FILE");
  cmd->callback([opts, &exit_code] {
    eval(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
