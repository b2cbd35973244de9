#include "actors/cluster/worker.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>

#include "actors/agent_supervisor.hpp"
#include "actors/cluster/gateway.hpp"
#include "actors/cluster/remote_opponents.hpp"
#include "run/config_loader.hpp"
#include "actors/errors.hpp"
#include "agents/random_streams.hpp"

namespace troupe::actors {

namespace {

using clock_type = std::chrono::steady_clock;

constexpr auto join_timeout = std::chrono::seconds(10);      // the learner's answer to a join
constexpr auto retry_pause = std::chrono::milliseconds(250);  // between tries to reach it
constexpr auto stop_timeout = std::chrono::seconds(10);       // agents' answers to a stop
// SIGINT and SIGTERM only set a flag (a signal handler cannot send a
// message), which the worker reads this often between messages.
constexpr auto interrupt_poll = std::chrono::milliseconds(100);

struct join_outcome {
  cluster_gateway_actor gateway;  // valid: joined
  join_reply reply;
  int exit_code = -1;             // >= 0: the learner answered no, stop with this code
  std::string error;
};

// Connects and asks to join.
join_outcome try_join(caf::actor_system& sys, caf::scoped_actor& self, const worker_options& o) {
  join_outcome out;
  auto gw = o.tls.enabled()
                ? caf::openssl::remote_actor<cluster_gateway_actor>(sys, o.host, o.port)
                : sys.middleman().remote_actor<cluster_gateway_actor>(o.host, o.port);
  if (!gw) {
    out.error = sys.render(gw.error());
    return out;
  }
  join_request req{cluster_protocol_version, o.token, o.name, o.agents};
  caf::error refusal;
  self->request(*gw, join_timeout, std::move(req))
      .receive([&](join_reply& r) { out.reply = std::move(r), out.gateway = *gw; },
               [&](caf::error& err) { refusal = std::move(err); });
  if (out.gateway) return out;
  // Troupe's own refusals say their code first ("refused: wrong or missing ...").
  out.error = code_of(refusal) == errc::none
                  ? sys.render(refusal)
                  : to_string(code_of(refusal)) + ": " + detail_of(refusal);
  // The learner answered but said no: retrying would not change its mind.
  switch (code_of(refusal)) {
    case errc::run_ended:
      out.exit_code = 0;
      break;
    case errc::refused:
    case errc::protocol_mismatch:
    case errc::malformed:
      out.exit_code = exit_refused;
      break;
    default:
      break;  // unreachable or timed out: retry
  }
  if (out.exit_code >= 0)
    std::cerr << "troupe join: the learner at " << o.host << ":" << o.port
              << (out.exit_code == 0 ? ": " : " refused this worker: ") << out.error << "\n";
  return out;
}

}  // namespace

int run_worker(caf::actor_system& sys, const worker_options& o, std::atomic<bool>& interrupted) {
  caf::scoped_actor self{sys};
  const auto retry = std::chrono::duration_cast<clock_type::duration>(
      std::chrono::duration<double>(o.retry_seconds));
  auto give_up_at = clock_type::now() + retry;
  std::string last_error;
  while (!interrupted.load()) {
    join_outcome joined = try_join(sys, self, o);
    if (joined.exit_code >= 0) return joined.exit_code;
    if (!joined.gateway) {
      last_error = joined.error;
      if (clock_type::now() >= give_up_at) {
        std::cerr << "troupe join: gave up: the learner at " << o.host << ":" << o.port
                  << " was unreachable for " << o.retry_seconds << " s (" << last_error << ")\n";
        return 1;
      }
      std::this_thread::sleep_for(retry_pause);
      continue;
    }
    const auto& gateway = joined.gateway;
    const join_reply& reply = joined.reply;
    const size_t policies = reply.policy_configs.size();
    if (reply.agent_policies.size() != size_t(o.agents) || reply.policy_remote_opponents.size() != policies ||
        std::any_of(reply.agent_policies.begin(), reply.agent_policies.end(),
                    [&](std::int32_t p) { return p < 0 || size_t(p) >= policies; })) {
      std::cerr << "troupe join: error: the learner's answer does not say what each agent plays for\n";
      return exit_refused;
    }
    std::vector<run::run_config> configs_of;  // per policy
    try {
      for (const std::string& yaml : reply.policy_configs) {
        configs_of.push_back(o.read_config(yaml));
        // Workers make their own environments: one this worker cannot make
        // ends it now, rather than after agents.max_restarts failures.
        run::env_spec_for(configs_of.back(), "the learner's config");
      }
    } catch (const run::config_error& e) {
      std::cerr << "troupe join: error: " << e.what() << "\n";
      return exit_no_env;
    }
    std::vector<agent_config> configs;
    std::vector<agent_supervisor::wiring> wires;
    for (int i = 0; i < o.agents; ++i) {
      const size_t p = size_t(reply.agent_policies[size_t(i)]);
      const std::uint32_t id = reply.first_agent_id + std::uint32_t(i);
      configs.push_back(agent_config_for(configs_of[p], id, 0));
      // No lane: over the network.
      wires.push_back({gateway, nullptr, gateway, gateway,
                       reply.policy_remote_opponents[p] ? remote_opponents(gateway, id) : opponent_source{}});
    }
    const run::run_config& config = configs_of.front();
    const std::uint64_t base = joined.reply.seed;
    auto seeds = [base](size_t i, std::uint64_t incarnation) {
      return agents::stream_seed(base, i, incarnation);
    };
    // Named to the gateway, so that the learner's viewers can ask for frames.
    auto named = [&, first = joined.reply.first_agent_id](size_t i, const agent_actor& agent) {
      self->send(gateway, agent_atom_v, first + std::uint32_t(i), agent);
    };
    agent_supervisor crew(sys, self, configs, wires, config.agents.max_restarts, seeds, named);
    crew.start_all();
    self->monitor(gateway);
    std::cout << "troupe join: joined " << o.host << ":" << o.port << " as " << o.name << ": "
              << o.agents << (o.agents == 1 ? " agent x " : " agents x ") << config.env.envs_per_agent << " " << config.env.id
              << (config.env.versus.seat == "all" ? " games, every agent of each played" : " envs")
              << (policies > 1 ? " for " + std::to_string(policies) + " policies" : std::string()) << std::endl;
    bool lost = false, ended = false, failed = false;
    while (!lost && !ended && !failed && !interrupted.load()) {
      self->receive(
          [&](stop_atom) { ended = true; },
          [&](caf::down_msg& down) {
            if (down.source == gateway.address()) {
              last_error = sys.render(down.reason);
              lost = true;
            } else if (crew.on_down(down) && crew.over_budget()) {
              std::cerr << "troupe join: agents failed more than agents.max_restarts ("
                        << crew.last_failure() << ")\n";
              failed = true;
            }
          },
          caf::after(interrupt_poll) >> [] {});
    }
    crew.stop_all(stop_timeout);
    if (failed) return 1;
    if (ended) {
      std::cout << "troupe join: the run has ended" << std::endl;
      return 0;
    }
    if (lost) {
      std::cerr << "troupe join: lost the learner (" << last_error << "); retrying for "
                << o.retry_seconds << " s" << std::endl;
      give_up_at = clock_type::now() + retry;
    }
  }
  std::cout << "troupe join: interrupted" << std::endl;
  return 0;
}

}  // namespace troupe::actors
