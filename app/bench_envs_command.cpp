// troupe bench envs [--steps N] [--env ID]... [--json FILE]
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "actors/config_loader.hpp"
#include "bench/env_bench.hpp"
#include "envs/registry.hpp"

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
  std::string json_path;
};

void bench_envs(const bench_envs_options& opts) {
  for (const auto& id : opts.env_ids)
    if (!envs::is_registered(id)) {
      try {
        envs::make_env(id);  // throws the message that lists the registered ids
      } catch (const std::invalid_argument& e) {
        throw config_error(std::string("--env: ") + e.what());
      }
    }
  std::printf("%-28s %12s %14s   (median of %d repeats of %ld steps, one thread)\n", "env",
              "ns/step", "steps/s", opts.repeats, opts.steps);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& entry : envs::registered_envs()) {
    if (!opts.env_ids.empty() &&
        std::find(opts.env_ids.begin(), opts.env_ids.end(), entry.id) == opts.env_ids.end())
      continue;
    const bench::env_bench_result r = bench::bench_env(entry, opts.steps, opts.repeats);
    std::printf("%-28s %12.1f %14.0f\n", r.id.c_str(), r.ns_per_step, 1e9 / r.ns_per_step);
    std::fflush(stdout);
    results.push_back({{"env", r.id},
                       {"ns_per_step", r.ns_per_step},
                       {"steps", r.steps},
                       {"repeat_ns_per_step", r.repeat_ns}});
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
      "envs", "ns per step of every registered environment, random actions, one thread");
  cmd->add_option("--steps", opts->steps, "timed steps per repeat")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeats", opts->repeats, "timed repeats; the median is reported")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--env", opts->env_ids, "only this environment (repeatable)");
  cmd->add_option("--json", opts->json_path, "write {\"results\": [...]} to this file");
  cmd->callback([opts, &exit_code] {
    bench_envs(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
