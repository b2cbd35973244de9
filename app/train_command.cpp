// troupe train CONFIG [--set key=value]... [--run-dir DIR]
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <tuple>

#include <CLI/CLI.hpp>

#include "actors/coordinator.hpp"
#include "actors/network_setup.hpp"
#include "app/commands.hpp"
#include "app/teardown_watchdog.hpp"
#include "app/training.hpp"
#include "app/config_loader.hpp"
#include "app/plot_hook.hpp"
#include "app/summary.hpp"
#include "model/checkpoint.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::app {

namespace {

std::atomic<bool> interrupted{false};

// First SIGINT/SIGTERM: stop gracefully. Second: leave at once.
extern "C" void on_signal(int) {
  if (interrupted.exchange(true)) _exit(130);
}

std::string timestamp() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
  return buf;
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The newest checkpoint of a run directory that loads, skipping damaged ones.
std::string resumable_checkpoint(const std::string& run_dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(run_dir)) throw config_error(run_dir + ": no such run directory");
  for (std::string path = actors::newest_checkpoint(run_dir); !path.empty();
       path = actors::newest_checkpoint(run_dir)) {
    try {
      model::read_checkpoint_meta(path);
      return path;
    } catch (const model::checkpoint_error& e) {
      std::cerr << "troupe: skipping " << e.what() << "\n";
      fs::rename(path, path + ".damaged");
    }
  }
  throw config_error(run_dir + ": no checkpoint to resume from in " + run_dir + "/checkpoints");
}

// troupe serve: the token workers must present, from the first place that
// has one; otherwise a fresh random one, printed for the workers.
std::string cluster_token(const train_options& opts, const actors::run_config& config) {
  if (!opts.token.empty()) return opts.token;
  if (!config.cluster.token.empty()) return config.cluster.token;
  if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN"); env && *env) return env;
  std::random_device rd;
  char hex[33];
  for (int i = 0; i < 16; ++i) std::snprintf(hex + 2 * i, 3, "%02x", rd() & 0xff);
  std::cout << "troupe: no cluster token given; workers join with --token " << hex << std::endl;
  return hex;
}

}  // namespace

int run_training(const train_options& opts) {
  actors::run_request request;
  if (!opts.resume_dir.empty()) {
    if (!opts.config_path.empty())
      throw config_error("give either a CONFIG or --resume RUN_DIR, not both");
    request.resume_from = resumable_checkpoint(opts.resume_dir);
    request.run_dir = opts.resume_dir;
    request.config = load_config(opts.resume_dir + "/config.yaml", opts.overrides);
  } else {
    if (opts.config_path.empty()) throw config_error("give a CONFIG file (or --resume RUN_DIR)");
    request.config = load_config(opts.config_path, opts.overrides);
    request.run_dir = opts.run_dir.empty()
                          ? "runs/" + request.config.run.name + "-" + timestamp()
                          : opts.run_dir;
  }
  const actors::run_config& config = request.config;
  const std::string& run_dir = request.run_dir;
  const bool serving = !opts.listen.empty();
  if (!serving && config.agents.count == 0)
    throw config_error("agents.count is 0: only troupe serve runs without local agents");
  if (serving) {
    try {
      std::tie(request.cluster.host, request.cluster.port) =
          actors::parse_host_port(opts.listen, "--listen");
    } catch (const std::invalid_argument& e) {
      throw config_error(e.what());
    }
    request.cluster.token = cluster_token(opts, config);
    request.cluster.tls = config.cluster.tls;
    actors::run_config for_workers = config;
    for_workers.cluster = {};  // the token and key paths stay on the learner
    request.cluster.worker_config_yaml = to_yaml(for_workers);
    request.config.cluster.token.clear();  // never written to the run directory
  }
  request.config_yaml = to_yaml(config);
  std::filesystem::create_directories(run_dir);
  write_file(std::filesystem::path(run_dir) / "config.yaml", request.config_yaml);

  // Large temporary tensors otherwise map and unmap memory on every pass.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  model::set_compute_threads(1);
  std::cout << "troupe: " << config.env.id << ", " << config.agents.count << " agents x "
            << config.env.envs_per_agent << " envs, devices [" << config.devices.front()
            << "]\n"
            << "troupe: " << model::describe_compute_runtime() << "\n"
            << "troupe: run directory " << run_dir << std::endl;
  if (!request.resume_from.empty())
    std::cout << "troupe: resuming from " << request.resume_from << std::endl;

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  teardown_watchdog watchdog;  // outlives the system below
  caf::actor_system_config caf_config;
  actors::configure_actor_system(caf_config);
  if (serving) actors::configure_network(caf_config, config.cluster.tls);
  caf::actor_system system{caf_config};
  const actors::run_outcome outcome = actors::coordinate(system, request, interrupted);
  write_file(std::filesystem::path(run_dir) / "summary.json",
             summary_json(outcome, config.run.stop.mean_return));

  const auto& t = outcome.totals;
  std::cout << "troupe: stopped (" << outcome.stop_reason << ") after " << outcome.wall_seconds
            << " s, " << t.env_steps << " env steps ("
            << long(outcome.samples_collected / outcome.wall_seconds) << "/s), " << t.episodes << " episodes, mean return " << t.final_mean_return;
  if (t.solved)
    std::cout << "; solved in " << t.seconds_to_target << " s / " << t.env_steps_to_target
              << " env steps";
  std::cout << "\ntroupe: summary in " << run_dir << "/summary.json";
  if (!outcome.last_checkpoint.empty())
    std::cout << "; checkpoint " << outcome.last_checkpoint;
  std::cout << std::endl;
  if (config.log.plot) plot_run(run_dir);
  int exit_code = 0;
  if (outcome.stop_reason == "agent_failures") {
    std::cerr << "troupe: error: agents failed " << outcome.agent_restarts
              << " times, more than agents.max_restarts allows; the last failure: "
              << outcome.last_failure << "\n";
    exit_code = 1;
  }
  watchdog.arm(exit_code);
  return exit_code;
}

void add_train_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<train_options>();
  auto* cmd = cli.add_subcommand("train", "train an agent from a YAML config");
  cmd->add_option("config", opts->config_path, "YAML run config");
  cmd->add_option("--resume", opts->resume_dir,
                  "continue the run in RUN_DIR from its newest checkpoint");
  cmd->add_option("--set", opts->overrides, "override a key: dotted.key=value (value is YAML)");
  cmd->add_option("--run-dir", opts->run_dir, "run directory (default runs/<name>-<timestamp>)");
  cmd->callback([opts, &exit_code] { exit_code = run_training(*opts); });
}

}  // namespace troupe::app
