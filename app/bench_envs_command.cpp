// troupe bench envs [--steps N] [--env ID]... [--envs-per-process N]
//                   [--set env.KEY=VALUE]... [--json FILE]
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/env_flags.hpp"
#include "bench/bridge_bench.hpp"
#include "bench/env_bench.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_id.hpp"
#include "run/config_loader.hpp"

namespace troupe::app {

CLI::App* bench_command(CLI::App& cli) {
  const auto found = cli.get_subcommands([](CLI::App* s) { return s->get_name() == "bench"; });
  if (!found.empty()) return found.front();
  auto* bench = cli.add_subcommand("bench", "micro-benchmarks (see `troupe bench --help`)");
  bench->require_subcommand(1);
  return bench;
}

namespace {

struct bench_envs_options {
  long steps = 200000;
  int repeats = 3;
  std::vector<std::string> env_ids;  // empty: every registered environment
  std::vector<std::string> env_overrides;
  int envs_per_process = 64;
  bool pin = false;
  std::string json_path;
};

bool is_python(const envs::env_id& id) {
  const auto source = id.source();
  return source == envs::env_source::python || source == envs::env_source::gymnasium;
}

// A Python environment: its own step time and what the bridge adds to it.
nlohmann::ordered_json bench_bridge(const envs::env_config& config, const bench_envs_options& opts) {
  const bench::bridge_bench_result r =
      bench::bench_python_bridge(config, opts.envs_per_process, opts.steps, opts.repeats, 0, opts.pin);
  std::printf("%-28s %12.1f %14.0f   through the bridge %.1f ns/step: the bridge costs %.1f ns "
              "per env step (CPU: %.1f ns) (%d envs in %d process%s%s)\n",
              r.id.c_str(), r.alone_ns, 1e9 / r.alone_ns, r.bridge_ns, r.cost_ns, r.cpu_cost_ns,
              r.envs, r.processes, r.processes == 1 ? "" : "es", r.pinned ? ", pinned" : "");
  return {{"env", r.id},
          {"ns_per_step", r.alone_ns},
          {"steps", r.vector_steps * r.envs},
          {"envs", r.envs},
          {"pinned", r.pinned},
          {"processes", r.processes},
          {"bridge_ns_per_step", r.bridge_ns},
          {"bridge_cost_ns_per_step", r.cost_ns},
          {"cpu_ns_per_step", r.alone_cpu_ns},
          {"bridge_cpu_ns_per_step", r.bridge_cpu_ns},
          {"bridge_cpu_cost_ns_per_step", r.cpu_cost_ns},
          {"repeat_ns_per_step", r.repeat_alone_ns},
          {"repeat_bridge_ns_per_step", r.repeat_bridge_ns},
          {"repeat_bridge_cost_ns_per_step", r.repeat_cost_ns},
          {"repeat_bridge_cpu_cost_ns_per_step", r.repeat_cpu_cost_ns}};
}

nlohmann::ordered_json bench_one(const envs::env_config& config, const bench_envs_options& opts) {
  const bench::env_bench_result r = bench::bench_env(config, opts.steps, opts.repeats);
  std::printf("%-28s %12.1f %14.0f", r.id.c_str(), r.ns_per_step, 1e9 / r.ns_per_step);
  nlohmann::ordered_json row = {{"env", r.id},
                                {"ns_per_step", r.ns_per_step},
                                {"steps", r.steps},
                                {"repeat_ns_per_step", r.repeat_ns}};
  if (r.physics_ns_per_step > 0) {
    // Each repeat's task beside its own physics: the ratio of one run.
    std::vector<double> overhead;
    for (size_t i = 0; i < r.repeat_ns.size(); ++i)
      overhead.push_back(100.0 * (r.repeat_ns[i] / r.repeat_physics_ns[i] - 1.0));
    const double median_overhead = bench::median(overhead);
    std::printf("   physics alone %.1f ns/step: the task adds %.1f %%", r.physics_ns_per_step, median_overhead);
    row["physics_ns_per_step"] = r.physics_ns_per_step;
    row["repeat_physics_ns_per_step"] = r.repeat_physics_ns;
    row["overhead_percent"] = median_overhead;
    row["repeat_overhead_percent"] = overhead;
  }
  std::printf("\n");
  return row;
}

void bench_envs(const bench_envs_options& opts) {
  std::vector<envs::env_config> configs;
  if (opts.env_ids.empty()) {
    for (const auto& entry : catalog::registered_envs())
      configs.push_back(catalog::with_playable_seat(run::load_env_options(entry.id, opts.env_overrides)));
  } else {
    for (const auto& id : opts.env_ids) {
      try {
        configs.push_back(run::load_env_options(id, opts.env_overrides));
      } catch (const config_error& e) {
        throw config_error(std::string("--env: ") + e.what());
      }
    }
    // Made once before any timing, so that a bad one fails at once (exit 2).
    for (const auto& c : configs)
      if (!catalog::is_registered(c.id.text())) make_command_env(c);
  }
  std::printf("%-28s %12s %14s   (median of %d repeats of %ld steps, one thread)\n", "env",
              "ns/step", "steps/s", opts.repeats, opts.steps);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& config : configs) {
    results.push_back(is_python(config.id) ? bench_bridge(config, opts) : bench_one(config, opts));
    std::fflush(stdout);
  }
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << nlohmann::ordered_json{{"results", results}}.dump(2) << "\n";
    if (!out) throw config_error("cannot write " + opts.json_path);
  }
}

}  // namespace

void add_bench_envs_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<bench_envs_options>();
  auto* cmd = bench_command(cli)->add_subcommand(
      "envs",
      "ns per step of every registered environment, random actions, one thread; for a Python "
      "environment, also what the bridge to its process adds per step");
  cmd->add_option("--steps", opts->steps, "timed env steps per repeat")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeats", opts->repeats, "timed repeats; the median is reported")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--env", opts->env_ids,
                  "only this environment (repeatable): a registered id, python:MODULE:CALLABLE, "
                  "gymnasium:ENV_ID or plugin:PATH.so");
  cmd->add_option("--envs-per-process", opts->envs_per_process,
                  "Python environments: how many one vector holds (env.processes_per_agent "
                  "processes share them)")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->add_flag("--pin", opts->pin,
                "Python environments: their processes on one CPU, the stepping thread on another "
                "(no migrations between cores; needs two CPUs)");
  add_env_set_option(*cmd, opts->env_overrides);
  cmd->add_option("--json", opts->json_path, "write {\"results\": [...]} to this file");
  cmd->callback([opts, &exit_code] {
    bench_envs(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
