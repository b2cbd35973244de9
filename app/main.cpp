// troupe: the command line.
#include <malloc.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "actors/coordinator.hpp"
#include "app/config_loader.hpp"
#include "app/summary.hpp"
#include "envs/registry.hpp"
#include "model/compute_runtime.hpp"

namespace {

using namespace troupe;

constexpr int exit_usage = 2;  // bad config, flag or file

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

int train(const std::string& config_path, const std::vector<std::string>& overrides,
          std::string run_dir) {
  const actors::run_config config = app::load_config(config_path, overrides);
  if (run_dir.empty()) run_dir = "runs/" + config.run.name + "-" + timestamp();
  std::filesystem::create_directories(run_dir);
  write_file(std::filesystem::path(run_dir) / "config.yaml", app::to_yaml(config));

  // Large temporary tensors otherwise map and unmap memory on every pass.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  model::set_compute_threads(1);
  std::cout << "troupe: " << config.env.id << ", " << config.agents.count << " agents x "
            << config.env.envs_per_agent << " envs, devices [" << config.devices.front()
            << "]\n"
            << "troupe: " << model::describe_compute_runtime() << "\n"
            << "troupe: run directory " << run_dir << std::endl;

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  caf::actor_system_config caf_config;
  actors::configure_actor_system(caf_config);
  caf::actor_system system{caf_config};
  const actors::run_outcome outcome = actors::coordinate(system, config, run_dir, interrupted);
  write_file(std::filesystem::path(run_dir) / "summary.json",
             app::summary_json(outcome, config.run.stop.mean_return));

  const auto& t = outcome.totals;
  std::cout << "troupe: stopped (" << outcome.stop_reason << ") after " << outcome.wall_seconds
            << " s, " << t.env_steps << " env steps (" << long(t.env_steps / outcome.wall_seconds)
            << "/s), " << t.episodes << " episodes, mean return " << t.final_mean_return;
  if (t.solved)
    std::cout << "; solved in " << t.seconds_to_target << " s / " << t.env_steps_to_target
              << " env steps";
  std::cout << "\ntroupe: summary in " << run_dir << "/summary.json" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"troupe: actor-model A3C training"};
  cli.require_subcommand(1);

  auto* train_cmd = cli.add_subcommand("train", "train an agent from a YAML config");
  std::string config_path, run_dir;
  std::vector<std::string> overrides;
  train_cmd->add_option("config", config_path, "YAML run config")->required();
  train_cmd->add_option("--set", overrides, "override a key: dotted.key=value (value is YAML)");
  train_cmd->add_option("--run-dir", run_dir, "run directory (default runs/<name>-<timestamp>)");

  auto* config_cmd = cli.add_subcommand("config", "describe or check run configs");
  bool describe = false;
  std::string check_path;
  config_cmd->add_flag("--describe", describe, "print every config key");
  config_cmd->add_option("--check", check_path, "validate a config file without training");

  auto* envs_cmd = cli.add_subcommand("envs", "list the registered environments");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? 0 : exit_usage;
  }
  try {
    if (train_cmd->parsed()) return train(config_path, overrides, run_dir);
    if (config_cmd->parsed()) {
      if (!check_path.empty()) {
        app::load_config(check_path);
        std::cout << check_path << ": ok\n";
      }
      if (describe) std::cout << app::describe_config();
      if (check_path.empty() && !describe) {
        std::cerr << "troupe config: give --describe or --check FILE\n";
        return exit_usage;
      }
      return 0;
    }
    if (envs_cmd->parsed()) {
      for (const auto& entry : envs::registered_envs()) {
        const auto env = entry.make(envs::env_config{});
        const auto& spec = env->spec();
        std::cout << spec.id << "  observation " << spec.observation.describe() << "  action "
                  << spec.action.describe() << "  episode limit " << spec.max_episode_steps
                  << "\n";
      }
      return 0;
    }
  } catch (const app::config_error& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "troupe: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
