// troupe serve CONFIG --listen HOST:PORT [--token T] [--set k=v]... [--run-dir DIR]
//              [--view] [--view-port PORT]
// The learner node of cluster mode: a training run whose gateway workers join.
#include <memory>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/training.hpp"

namespace troupe::app {

void add_serve_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<train_options>();
  opts->listen = "127.0.0.1:4750";
  auto* cmd = cli.add_subcommand(
      "serve", "train as a cluster's learner node: workers (troupe join) add agents over TCP");
  cmd->add_option("config", opts->config_path, "YAML run config");
  cmd->add_option("--listen", opts->listen,
                  "HOST:PORT to accept workers on (default 127.0.0.1:4750: this machine only; "
                  "0.0.0.0:PORT for every interface)");
  cmd->add_option("--token", opts->token,
                  "shared secret workers must present (else cluster.token, else "
                  "TROUPE_CLUSTER_TOKEN, else a random one is printed)");
  cmd->add_option("--resume", opts->resume_dir,
                  "continue the run in RUN_DIR from its newest checkpoint");
  cmd->add_option("--set", opts->overrides, "override a key: dotted.key=value (value is YAML)");
  cmd->add_option("--run-dir", opts->run_dir, "run directory (default runs/<name>-<timestamp>)");
  add_watch_options(*cmd, *opts);  // a cluster run's viewers see the workers' agents too
  cmd->callback([opts, &exit_code] { exit_code = run_training(*opts); });
}

}  // namespace troupe::app
