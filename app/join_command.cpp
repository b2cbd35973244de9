// troupe join HOST:PORT [--agents N] [--token T] [--retry SECONDS] [--name NAME]
// A cluster worker: joins a learner (troupe serve), receives the run's config
// from it, and runs agent actors whose predict requests, rollouts and reports
// go to the learner's gateway. Headless: it never opens a window.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>

#include "actors/agent_actor.hpp"
#include "actors/cluster_gateway.hpp"
#include "actors/network_setup.hpp"
#include "app/commands.hpp"
#include "app/config_loader.hpp"
#include "app/interrupts.hpp"
#include "app/teardown_watchdog.hpp"

namespace troupe::app {

namespace {

constexpr int exit_refused = 3;

struct join_options {
  std::string learner;
  int agents = 2;
  std::string token;
  double retry_seconds = 30;
  std::string name;
  actors::tls_files tls;
};

using clock = std::chrono::steady_clock;

// An error's own words, without CAF's wrapping.
std::string reason_of(caf::actor_system& sys, const caf::error& err) {
  const auto& ctx = err.context();
  if (ctx.match_elements<std::string>()) return ctx.get_as<std::string>(0);
  return sys.render(err);
}

std::string default_name() {
  char host[256] = "worker";
  gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(getpid());
}

// The worker's agents for one membership of the run.
struct crew {
  std::vector<actors::agent_actor> agents;
  std::vector<actors::agent_config> configs;
  int restarts = 0;
};

void stop_all(caf::scoped_actor& self, crew& c) {
  for (auto& a : c.agents) {
    if (!a) continue;
    self->demonitor(a.address());
    self->request(a, std::chrono::seconds(10), actors::stop_atom_v)
        .receive([](const actors::agent_final&) {}, [](caf::error&) {});
  }
  c.agents.clear();
}

// Connects and joins. Returns the gateway, or an invalid handle after
// printing why (refused: exit code in `exit_code`; unreachable: retry).
actors::cluster_gateway_actor try_join(caf::actor_system& sys, caf::scoped_actor& self,
                                       const join_options& o, const std::string& host,
                                       std::uint16_t port, actors::join_reply& reply,
                                       std::string& last_error, int& exit_code) {
  auto gw = o.tls.enabled()
                ? caf::openssl::remote_actor<actors::cluster_gateway_actor>(sys, host, port)
                : sys.middleman().remote_actor<actors::cluster_gateway_actor>(host, port);
  if (!gw) {
    last_error = sys.render(gw.error());
    return {};
  }
  actors::join_request req{actors::cluster_protocol_version, o.token, o.name, o.agents};
  bool joined = false;
  self->request(*gw, std::chrono::seconds(10), std::move(req))
      .receive([&](actors::join_reply& r) { reply = std::move(r), joined = true; },
               [&](caf::error& err) { last_error = reason_of(sys, err); });
  if (joined) return *gw;
  // The learner answered but said no: retrying would not change its mind.
  if (last_error.find("refused") != std::string::npos ||
      last_error.find("protocol") != std::string::npos ||
      last_error.find("run has ended") != std::string::npos ||
      last_error.find("agents") != std::string::npos) {
    std::cerr << "troupe join: the learner at " << host << ":" << port
              << " refused this worker: " << last_error << "\n";
    exit_code = last_error.find("run has ended") != std::string::npos ? 0 : exit_refused;
  }
  return {};
}

int join_run(const join_options& o, caf::actor_system& sys, std::atomic<bool>& interrupted);

int join(join_options o) {
  std::string host;
  std::uint16_t port = 0;
  try {
    std::tie(host, port) = actors::parse_host_port(o.learner, "LEARNER");
  } catch (const std::invalid_argument& e) {
    throw config_error(e.what());
  }
  if (o.token.empty())
    if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN")) o.token = env;
  if (o.token.empty())
    throw config_error("no cluster token: give --token or set TROUPE_CLUSTER_TOKEN");
  if (o.name.empty()) o.name = default_name();
  const int tls_set = !o.tls.certificate.empty() + !o.tls.key.empty() + !o.tls.ca.empty();
  if (tls_set != 0 && tls_set != 3)
    throw config_error("TLS needs all of --tls-cert, --tls-key and --tls-ca (or none)");

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
  const int code = join_run(o, sys, interrupted);
  watchdog.arm(code);
  return code;
}

int join_run(const join_options& o, caf::actor_system& sys, std::atomic<bool>& interrupted) {
  std::string host;
  std::uint16_t port = 0;
  std::tie(host, port) = actors::parse_host_port(o.learner, "LEARNER");
  caf::scoped_actor self{sys};
  const auto retry = std::chrono::duration<double>(o.retry_seconds);
  auto give_up_at = clock::now() + std::chrono::duration_cast<clock::duration>(retry);
  std::string last_error;
  while (!interrupted.load()) {
    actors::join_reply reply;
    int exit_code = -1;
    auto gateway = try_join(sys, self, o, host, port, reply, last_error, exit_code);
    if (exit_code >= 0) return exit_code;
    if (!gateway) {
      if (clock::now() >= give_up_at) {
        std::cerr << "troupe join: gave up: the learner at " << host << ":" << port
                  << " was unreachable for " << o.retry_seconds << " s (" << last_error
                  << ")\n";
        return 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      continue;
    }
    const actors::run_config config = load_config_text(reply.config_yaml, "the learner's config");
    crew c;
    auto start_agent = [&](size_t i) {
      actors::agent_config& a = c.configs[i];
      a.seed += std::uint64_t(c.restarts) << 32;  // a replacement draws fresh numbers
      c.agents[i] = actors::spawn_agent(sys, a, gateway, gateway, gateway);
      self->monitor(c.agents[i]);
      // So that the learner's viewers can ask it for frames.
      self->send(gateway, actors::agent_atom_v, a.id, caf::actor_cast<caf::actor>(c.agents[i]));
      self->send(c.agents[i], actors::start_atom_v);
    };
    c.agents.resize(o.agents);
    for (int i = 0; i < o.agents; ++i) {
      c.configs.push_back(actors::agent_config_for(config, reply.first_agent_id + std::uint32_t(i),
                                                   reply.seed + std::uint64_t(i)));
    }
    for (int i = 0; i < o.agents; ++i) start_agent(i);
    self->monitor(gateway);
    std::cout << "troupe join: joined " << host << ":" << port << " as " << o.name << ": "
              << o.agents << " agents x " << config.env.envs_per_agent << " " << config.env.id
              << " envs" << std::endl;
    bool lost = false, ended = false;
    while (!lost && !ended && !interrupted.load()) {
      self->receive(
          [&](actors::stop_atom) { ended = true; },
          [&](caf::down_msg& down) {
            if (down.source == gateway.address()) {
              last_error = sys.render(down.reason);
              lost = true;
              return;
            }
            for (size_t i = 0; i < c.agents.size(); ++i) {
              if (!c.agents[i] || c.agents[i].address() != down.source) continue;
              if (++c.restarts > config.agents.max_restarts) {
                std::cerr << "troupe join: agents failed more than agents.max_restarts ("
                          << sys.render(down.reason) << ")\n";
                c.agents[i] = nullptr;
                interrupted = true;
              } else {
                start_agent(i);
              }
            }
          },
          caf::after(std::chrono::milliseconds(100)) >> [] {});
    }
    stop_all(self, c);
    if (ended) {
      std::cout << "troupe join: the run has ended" << std::endl;
      return 0;
    }
    if (lost) {
      std::cerr << "troupe join: lost the learner (" << last_error << "); retrying for "
                << o.retry_seconds << " s" << std::endl;
      give_up_at = clock::now() + std::chrono::duration_cast<clock::duration>(retry);
    }
  }
  std::cout << "troupe join: interrupted" << std::endl;
  return 0;
}

}  // namespace

void add_join_command(CLI::App& cli, int& exit_code) {
  auto o = std::make_shared<join_options>();
  auto* cmd = cli.add_subcommand("join", "join a learner (troupe serve) as a headless worker");
  cmd->add_option("learner", o->learner, "the learner's HOST:PORT")->required();
  cmd->add_option("--agents", o->agents, "agent actors on this worker")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--token", o->token, "the learner's cluster token (else TROUPE_CLUSTER_TOKEN)");
  cmd->add_option("--retry", o->retry_seconds,
                  "seconds to keep trying while the learner is unreachable (default 30)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--name", o->name, "this worker's name in the learner's metrics");
  cmd->add_option("--tls-cert", o->tls.certificate, "PEM certificate of this worker");
  cmd->add_option("--tls-key", o->tls.key, "PEM private key of --tls-cert");
  cmd->add_option("--tls-ca", o->tls.ca, "PEM CA certificate the learner's must be signed by");
  cmd->callback([o, &exit_code] { exit_code = join(*o); });
}

}  // namespace troupe::app
