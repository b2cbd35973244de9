// troupe bench learner [CONFIG...] [--batches N] [--repeats N] [--threads N]
//                      [--set KEY=VALUE]... [--json FILE]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "bench/learner_bench.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

namespace {

// The network kinds the shipped configs train: an MLP with its own value
// trunk (MuJoCo), a shared MLP (CartPole), MinAtar's CNN, an LSTM.
const std::vector<std::string> default_configs = {
    "configs/mujoco_halfcheetah.yaml", "configs/cartpole_ppo.yaml", "configs/minatar_breakout_ppo.yaml",
    "configs/cartpole_pomdp_lstm_ppo.yaml"};

struct bench_learner_options {
  std::vector<std::string> configs;
  std::vector<std::string> overrides;
  int batches = 5;
  int repeats = 3;
  int threads = 1;
  std::string json_path;
};

void bench_learner(const bench_learner_options& opts) {
  model::set_compute_threads(opts.threads);
  std::vector<std::string> configs = opts.configs;
  if (configs.empty())
    for (const std::string& c : default_configs) configs.push_back(std::string(TROUPE_SOURCE_DIR) + "/" + c);
  std::vector<run::run_config> loaded;
  for (const std::string& path : configs) loaded.push_back(run::load_config(path, opts.overrides));  // bad ones fail first
  const int n = 2048;
  const double peak = bench::matmul_gflops(n, 0.3, opts.repeats);
  std::printf("troupe bench learner: %d compute thread(s); %s\n", opts.threads,
              model::describe_compute_runtime().c_str());
  std::printf("roofline: a %dx%d matrix product runs at %.1f GFLOP/s here\n", n, n, peak);
  std::printf("%-34s %-36s %5s %-8s %9s %11s %12s %9s %13s %9s\n", "config", "network", "algo", "passes",
              "minibatch", "us/step", "FLOP/sample", "GFLOP/s", "large batch", "achieved");
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (size_t i = 0; i < configs.size(); ++i) {
    const std::string name = std::filesystem::path(configs[i]).filename().string();
    const bench::learner_bench_result r = bench::bench_learner(loaded[i], name, opts.batches, opts.repeats);
    std::printf("%-34s %-36s %5s %-8s %9d %11.1f %12.0f %9.2f %8.1f@%-4d %8.1f%%\n", name.c_str(),
                r.network.c_str(), r.algorithm.c_str(), r.passes.c_str(), r.minibatch, r.us_per_step, r.flops_per_sample, r.achieved_gflops,
                r.large_batch_gflops, r.large_batch, 100.0 * r.achieved_gflops / peak);
    std::fflush(stdout);
    results.push_back({{"config", name},
                       {"network", r.network},
                       {"algorithm", r.algorithm},
                       {"passes", r.passes},
                       {"minibatch", r.minibatch},
                       {"us_per_minibatch_step", r.us_per_step},
                       {"repeat_us_per_minibatch_step", r.repeat_us_per_step},
                       {"flops_per_sample", r.flops_per_sample},
                       {"achieved_gflops", r.achieved_gflops},
                       {"large_batch", r.large_batch},
                       {"large_batch_gflops", r.large_batch_gflops},
                       {"achieved_over_peak", r.achieved_gflops / peak}});
  }
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << nlohmann::ordered_json{{"threads", opts.threads},
                                  {"compute", model::describe_compute_runtime()},
                                  {"matmul_n", n},
                                  {"peak_gflops", peak},
                                  {"results", results}}
               .dump(2)
        << "\n";
    if (!out) throw config_error("cannot write " + opts.json_path);
  }
}

}  // namespace

void add_bench_learner_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<bench_learner_options>();
  auto* cmd = bench_command(cli)->add_subcommand(
      "learner",
      "microseconds per minibatch step of each config's learner (forward, backward, optimiser) on "
      "synthetic rollouts of its shapes, its FLOPs and GFLOP/s against this machine's matrix-product "
      "GFLOP/s (the roofline) and the same network's at a large batch");
  cmd->add_option("configs", opts->configs,
                  "run configs (default: the MuJoCo, CartPole, MinAtar and LSTM PPO configs)");
  cmd->add_option("--batches", opts->batches, "timed batches per repeat")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeats", opts->repeats, "timed repeats; the median is reported")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", opts->threads, "LibTorch's and OpenBLAS's compute threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--set", opts->overrides, "KEY=VALUE for every config (repeatable)");
  cmd->add_option("--json", opts->json_path, "write the results to this file");
  cmd->callback([opts, &exit_code] {
    bench_learner(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
