// troupe join HOST:PORT [--agents N] [--token T] [--retry SECONDS] [--name NAME]
//                       [--tls-cert F --tls-key F --tls-ca F]
// A headless cluster worker (actors/cluster/worker.hpp): it never opens a window.
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include <CLI/CLI.hpp>

#include <caf/all.hpp>

#include "actors/net/network_setup.hpp"
#include "actors/cluster/worker.hpp"
#include "run/config_loader.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/messages/atoms.hpp"
#include "app/commands.hpp"
#include "app/interrupts.hpp"
#include "app/teardown_watchdog.hpp"

namespace troupe::app {

namespace {

struct join_flags {
  std::string learner;
  actors::worker_options worker;
};

std::string default_name() {
  char host[256] = "worker";
  gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(getpid());
}

int join(join_flags flags) {
  actors::worker_options& o = flags.worker;
  try {
    std::tie(o.host, o.port) = actors::parse_host_port(flags.learner, "LEARNER");
  } catch (const std::invalid_argument& e) {
    throw config_error(e.what());
  }
  if (o.token.empty())
    if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN")) o.token = env;
  if (o.token.empty())
    throw config_error("no cluster token: give --token or set TROUPE_CLUSTER_TOKEN");
  if (o.name.empty()) o.name = default_name();
  if (const std::string problem = o.tls.problem(); !problem.empty())
    throw config_error("TLS " + problem + ": give --tls-cert, --tls-key and --tls-ca");
  o.read_config = [](const std::string& yaml) {
    return run::load_config_text(yaml, "the learner's config");
  };

  std::atomic<bool>& interrupted = catch_interrupts();
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  try {
    actors::configure_network(cfg, o.tls);
  } catch (const std::invalid_argument& e) {
    throw config_error(e.what());
  }
  teardown_watchdog watchdog;  // outlives the system below
  caf::actor_system sys{cfg};
  const int code = actors::run_worker(sys, o, interrupted);
  watchdog.arm(code);
  return code;
}

}  // namespace

void add_join_command(CLI::App& cli, int& exit_code) {
  auto f = std::make_shared<join_flags>();
  actors::worker_options& o = f->worker;
  auto* cmd = cli.add_subcommand("join", "join a learner (troupe serve) as a headless worker");
  cmd->add_option("learner", f->learner, "the learner's HOST:PORT")->required();
  cmd->add_option("--agents", o.agents, "agent actors on this worker")->check(CLI::Range(1, 1024));
  cmd->add_option("--token", o.token, "the learner's cluster token (else TROUPE_CLUSTER_TOKEN)");
  cmd->add_option("--retry", o.retry_seconds,
                  "seconds to keep trying while the learner is unreachable (default 30)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--name", o.name, "this worker's name in the learner's metrics");
  cmd->add_option("--tls-cert", o.tls.certificate, "PEM certificate of this worker");
  cmd->add_option("--tls-key", o.tls.key, "PEM private key of --tls-cert");
  cmd->add_option("--tls-ca", o.tls.ca, "PEM CA certificate the learner's must be signed by");
  cmd->callback([f, &exit_code] { exit_code = join(*f); });
}

}  // namespace troupe::app
