#include "actors/cluster/gateway.hpp"

#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <string_view>
#include <unordered_set>
#include <stdexcept>
#include <vector>

#include "actors/cluster/message_checks.hpp"
#include "actors/cluster/opponent_host.hpp"
#include "actors/cluster/render_relay.hpp"
#include "actors/net/token.hpp"
#include "actors/errors.hpp"
#include "actors/net/flood_log.hpp"
#include "actors/net/network_facing.hpp"

namespace troupe::actors {

namespace {

struct worker_entry {
  std::string name;
  caf::actor_addr control;  // the worker's own actor: told when the run ends
  std::uint32_t first_agent = 0;
  std::int32_t agents = 0;
  std::vector<std::int32_t> policies;    // per agent: the policy it plays for
  std::vector<std::int32_t> view_slots;  // per agent: its frame hub slot, -1 until named
  // Fingerprints of the rollouts relayed lately, oldest first.
  std::unordered_set<std::uint64_t> recent;
  std::deque<std::uint64_t> recent_order;
  bool owns(std::uint32_t id) const {
    return id >= first_agent && id < first_agent + std::uint32_t(agents);
  }
  size_t policy_of(std::uint32_t id) const { return size_t(policies[id - first_agent]); }
};

// A policy as the gateway serves it.
struct served_policy {
  gateway_policy parts;
  std::uint64_t newest_version = 0;  // the newest parameter version its replies carried
};

struct gateway_state {
  gateway_config config;
  std::vector<served_policy> policies;
  std::map<caf::node_id, worker_entry> workers;
  std::map<std::string, int> names_used;
  std::uint32_t next_agent_id = 1u << 20;  // above any local agent's id
  std::uint64_t agents_dealt = 0;          // workers' agents so far: the next plays for policy (this mod their number)
  std::map<std::uint32_t, opponent_host_actor> hosts;  // by agent id, made at its first opponent request
  std::vector<bool> view_slot_taken;       // from config.first_view_slot on
  bool stopped = false;
  cluster_final totals;
  static inline const char* name = "cluster_gateway";
};

using gateway_impl =
    network_facing<caf::stateful_actor<gateway_state, cluster_gateway_actor::base>,
                   cluster_gateway_actor>;
using gateway_pointer = gateway_impl*;

// Refuses the message, and says so (actors/net/flood_log.hpp).
caf::error reject(gateway_pointer self, errc code, const std::string& why) {
  const auto n = ++self->state.totals.messages_rejected;
  if (worth_logging(n))
    std::cerr << "troupe serve: rejected a message from "
              << caf::to_string(self->current_sender() ? self->current_sender()->node()
                                                       : caf::node_id())
              << ": " << why << " (" << n << " rejected so far)" << std::endl;
  return make_error(code, why);
}

// The lowest frame hub slot no worker's agent holds.
std::int32_t take_view_slot(gateway_state& st) {
  size_t k = 0;
  while (k < st.view_slot_taken.size() && st.view_slot_taken[k]) ++k;
  if (k == st.view_slot_taken.size()) st.view_slot_taken.push_back(false);
  st.view_slot_taken[k] = true;
  return st.config.first_view_slot + std::int32_t(k);
}

// A worker left: viewers of its agents are moved on, its slots reused, the
// hosts of its games' other seats stopped.
void release_agents(gateway_pointer self, const worker_entry& w) {
  auto& st = self->state;
  for (std::int32_t slot : w.view_slots) {
    if (slot < 0) continue;
    st.view_slot_taken[size_t(slot - st.config.first_view_slot)] = false;
    self->send(st.config.frame_hub, agent_atom_v, slot, agent_actor{});
  }
  for (std::int32_t i = 0; i < w.agents; ++i) {
    auto it = st.hosts.find(w.first_agent + std::uint32_t(i));
    if (it == st.hosts.end()) continue;
    self->send_exit(it->second, caf::exit_reason::user_shutdown);
    st.hosts.erase(it);
  }
}

// The joined worker that sent the current message, or null.
worker_entry* sender_worker(gateway_pointer self) {
  const auto& sender = self->current_sender();
  if (!sender) return nullptr;
  auto it = self->state.workers.find(sender->node());
  return it == self->state.workers.end() ? nullptr : &it->second;
}

// What identifies a rollout's content: a replay is byte for byte the same.
std::uint64_t fingerprint(const algo::rollout& r) {
  std::uint64_t h = std::hash<std::uint64_t>{}((std::uint64_t(r.agent_id) << 32) ^ r.sequence);
  auto mix = [&h](const void* data, size_t bytes) {
    const std::uint64_t part =
        std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), bytes));
    h ^= part + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  mix(r.observations.data(), r.observations.size() * sizeof(float));
  mix(r.actions.data(), r.actions.size() * sizeof(float));
  mix(r.rewards.data(), r.rewards.size() * sizeof(float));
  mix(r.behaviour_logp.data(), r.behaviour_logp.size() * sizeof(float));
  mix(r.behaviour_version.data(), r.behaviour_version.size() * sizeof(std::uint64_t));
  return h;
}

// Remembers a rollout; false when it was relayed already.
bool first_time(worker_entry& w, std::uint64_t print, int window) {
  if (!w.recent.insert(print).second) return false;
  w.recent_order.push_back(print);
  if (w.recent_order.size() > size_t(window)) {
    w.recent.erase(w.recent_order.front());
    w.recent_order.pop_front();
  }
  return true;
}

// The replica that serves an agent: the same for its predicts and rollouts.
size_t replica_of(const gateway_policy& policy, std::uint32_t agent_id) {
  return agent_id % policy.owners.size();
}

// Asks `to` on a worker's behalf and answers the worker with its reply
// (relayed: `to` answers the gateway, never the worker), unless
// check(reply) names what is wrong with it; an error reply, or what check
// names, goes back as an error.
template <class Reply, class Handle, class Message, class Check>
caf::result<Reply> answer_through(gateway_pointer self, const Handle& to, Message message, Check check) {
  auto promise = self->make_response_promise<Reply>();
  self->request(to, caf::infinite, std::move(message))
      .then(
          [=](Reply& reply) mutable {
            if (const std::string why = check(reply); !why.empty())
              promise.deliver(make_error(errc::failed, why));
            else
              promise.deliver(std::move(reply));
          },
          [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

// A worker's control actor went down: its agents' budget is released.
void on_down(gateway_pointer self, const caf::down_msg& down) {
  auto& st = self->state;
  for (auto it = st.workers.begin(); it != st.workers.end(); ++it) {
    if (it->second.control != down.source) continue;
    std::cerr << "troupe serve: worker '" << it->second.name << "' left ("
              << caf::to_string(down.reason) << ")" << std::endl;
    release_agents(self, it->second);
    st.workers.erase(it);
    return;
  }
}

// A worker asks to join: checked (protocol, token, agents), given its agent
// ids and each agent's policy.
caf::result<join_reply> on_join(gateway_pointer self, join_request& req) {
  auto& st = self->state;
  const auto& sender = self->current_sender();
  if (!sender) return reject(self, errc::malformed, "join without a sender");
  if (st.stopped) return make_error(errc::run_ended, "the run has ended");
  if (req.protocol != cluster_protocol_version)
    return make_error(errc::protocol_mismatch,
                      "cluster protocol " + std::to_string(req.protocol) +
                          " but the learner speaks " + std::to_string(cluster_protocol_version));
  if (!tokens_match(req.token, st.config.token)) {
    ++st.totals.workers_refused;
    std::cerr << "troupe serve: refused worker '" << req.name << "' from "
              << caf::to_string(sender->node()) << ": wrong or missing token" << std::endl;
    return make_error(errc::refused, "wrong or missing cluster token");
  }
  if (req.agents < 1 || req.agents > st.config.max_agents_per_worker)
    return reject(self, errc::malformed, "a worker must bring 1.." +
                            std::to_string(st.config.max_agents_per_worker) + " agents");
  if (st.workers.count(sender->node()))
    return reject(self, errc::malformed, "this node has joined already");
  worker_entry w;
  const int seen = st.names_used[req.name]++;
  w.name = req.name.empty() ? "worker" : req.name.substr(0, 64);
  if (seen) w.name += "#" + std::to_string(seen + 1);
  w.control = caf::actor_cast<caf::actor_addr>(sender);
  w.first_agent = st.next_agent_id;
  w.agents = req.agents;
  w.view_slots.assign(size_t(req.agents), -1);
  st.next_agent_id += std::uint32_t(req.agents);
  join_reply reply{w.first_agent, st.config.seed + w.first_agent, {}, {}, {}};
  for (std::int32_t i = 0; i < req.agents; ++i)
    w.policies.push_back(std::int32_t(st.agents_dealt++ % st.policies.size()));
  reply.agent_policies = w.policies;
  for (const auto& p : st.policies) {
    reply.policy_configs.push_back(p.parts.config_yaml);
    reply.policy_remote_opponents.push_back(p.parts.opponents ? 1 : 0);
  }
  self->monitor(caf::actor_cast<caf::actor>(sender));
  std::cerr << "troupe serve: worker '" << w.name << "' joined with " << w.agents
            << " agents" << std::endl;
  ++st.totals.workers_joined;
  st.workers[sender->node()] = std::move(w);
  return reply;
}

// A worker's agent asks for actions: relayed to its policy's replica.
caf::result<predict_reply> on_predict(gateway_pointer self, predict_request& req) {
  auto& st = self->state;
  worker_entry* w = sender_worker(self);
  if (!w) return reject(self, errc::not_joined, "predict request from a node that has not joined");
  if (!w->owns(req.agent_id))
    return reject(self, errc::malformed, "predict request for a foreign agent id");
  const size_t p = w->policy_of(req.agent_id);
  const gateway_policy& policy = st.policies[p].parts;
  if (const std::string why = predict_request_problem(policy.shapes, req); !why.empty())
    return reject(self, errc::malformed, why);
  ++st.totals.predicts_relayed;
  const model_owner_actor& owner = policy.owners[replica_of(policy, req.agent_id)];
  return answer_through<predict_reply>(self, owner, std::move(req), [self, p](const predict_reply& reply) {
    // A model whose outputs overflowed answers with an error.
    std::string why = predict_reply_problem(reply);
    if (why.empty()) {
      auto& newest = self->state.policies[p].newest_version;
      newest = std::max(newest, reply.version);
    }
    return why;
  });
}

// A worker's rollout: checked (shapes, versions, replays), counted as
// collected here, and relayed to its policy's learner.
caf::result<train_ack> on_rollout(gateway_pointer self, algo::rollout& r) {
  auto& st = self->state;
  worker_entry* w = sender_worker(self);
  if (!w) return reject(self, errc::not_joined, "rollout from a node that has not joined");
  if (!w->owns(r.agent_id)) return reject(self, errc::malformed, "rollout for a foreign agent id");
  const served_policy& served = st.policies[w->policy_of(r.agent_id)];
  const gateway_policy& policy = served.parts;
  if (const std::string why = rollout_problem(policy.shapes, r); !why.empty())
    return reject(self, errc::malformed, why);
  for (std::uint64_t v : r.behaviour_version)
    if (v > served.newest_version)
      return reject(self, errc::malformed,
                    "rollout acted with parameter version " + std::to_string(v) +
                        ", newer than any predict reply so far (" +
                        std::to_string(served.newest_version) + ")");
  // After the stop, nothing more is collected: the worker drops it.
  if (st.stopped) return make_error(errc::run_ended, "the run has ended");
  if (!first_time(*w, fingerprint(r), st.config.replay_window))
    return reject(self, errc::malformed, "a rollout relayed already (replayed)");
  // Its steps count as collected here, where they reach the learner's
  // node, so that collected = trained + dropped holds however workers die.
  episode_report steps;
  steps.agent_id = r.agent_id;
  steps.env_steps = r.samples();
  steps.node = w->name;
  self->send(policy.metrics, std::move(steps));
  ++st.totals.rollouts_relayed;
  const learner_actor& learner = policy.learners[replica_of(policy, r.agent_id)];
  return answer_through<train_ack>(self, learner, std::move(r), [](const train_ack&) { return std::string(); });
}

// A worker's games ask for their other seats' moves: answered by the
// agent's opponent host on this node.
caf::result<opponent_reply> on_opponent_request(gateway_pointer self, opponent_request& req) {
  auto& st = self->state;
  worker_entry* w = sender_worker(self);
  if (!w) return reject(self, errc::not_joined, "opponent request from a node that has not joined");
  if (!w->owns(req.agent_id))
    return reject(self, errc::malformed, "opponent request for a foreign agent id");
  const gateway_policy& policy = st.policies[w->policy_of(req.agent_id)].parts;
  if (!policy.opponents)
    return reject(self, errc::malformed, "opponent request from an agent whose policy plays no other seat here");
  if (const std::string why = opponent_request_problem(policy.opponent_shapes, req); !why.empty())
    return reject(self, errc::malformed, why);
  if (st.stopped) return make_error(errc::run_ended, "the run has ended");
  auto host = st.hosts.find(req.agent_id);
  if (host == st.hosts.end())
    host = st.hosts
               .emplace(req.agent_id,
                        spawn_opponent_host(self->system(), policy.opponents, policy.opponent_shapes.action_width,
                                            caf::actor_cast<cluster_gateway_actor>(self)))
               .first;
  const auto moves = std::int64_t(req.games.size());
  return answer_through<opponent_reply>(self, host->second, std::move(req), [self, moves](const opponent_reply&) {
    self->state.totals.opponent_moves += moves;
    return std::string();
  });
}

// A worker's episode: to its policy's metrics (its steps were counted
// from its rollouts).
void on_episode_report(gateway_pointer self, episode_report& report) {
  auto& st = self->state;
  worker_entry* w = sender_worker(self);
  if (!w) {
    reject(self, errc::not_joined, "episode report from a node that has not joined");
    return;
  }
  if (st.stopped) return;
  if (!w->owns(report.agent_id) || !episode_report_problem(report).empty()) {
    reject(self, errc::malformed, "malformed episode report");
    return;
  }
  report.env_steps = 0;  // counted from the rollouts that arrived
  report.node = w->name;
  self->send(st.policies[w->policy_of(report.agent_id)].parts.metrics, std::move(report));
}

// A worker names one of its agents, for a viewer: a relay of this process
// stands between the frame hub and it.
void on_agent(gateway_pointer self, std::uint32_t id, agent_actor agent) {
  auto& st = self->state;
  worker_entry* w = sender_worker(self);
  if (!w) {
    reject(self, errc::not_joined, "agent named by a node that has not joined");
    return;
  }
  if (!w->owns(id) || !agent || agent->node() != self->current_sender()->node()) {
    reject(self, errc::malformed, "a worker named an agent that is not its own");
    return;
  }
  if (!st.config.frame_hub || st.stopped) return;
  std::int32_t& slot = w->view_slots[id - w->first_agent];
  if (slot < 0) slot = take_view_slot(st);
  // The hub talks to a relay of this process, never to the worker.
  self->send(st.config.frame_hub, agent_atom_v, slot,
             spawn_render_relay(self->system(), std::move(agent)));
}

// The run's end: the workers are told, the opponent hosts stopped, and
// the totals returned.
caf::result<cluster_final> on_stop(gateway_pointer self) {
  auto& st = self->state;
  if (!trusted_sender(self->current_sender()))
    return reject(self, errc::not_local, "stop from outside this process");
  st.stopped = true;
  for (auto& [node, w] : st.workers)
    caf::anon_send(caf::actor_cast<caf::actor>(w.control), stop_atom_v);
  for (auto& [id, host] : st.hosts) self->send_exit(host, caf::exit_reason::user_shutdown);
  st.hosts.clear();
  st.totals.dropped_at_door = self->dropped_at_door();
  return st.totals;
}

cluster_gateway_actor::behavior_type gateway(gateway_pointer self, gateway_config config,
                                             std::vector<gateway_policy> policies) {
  auto& st = self->state;
  st.config = std::move(config);
  for (auto& p : policies) st.policies.push_back({std::move(p)});
  self->set_down_handler([=](caf::down_msg& down) { on_down(self, down); });
  return {
      [=](join_request& req) -> caf::result<join_reply> { return on_join(self, req); },
      [=](predict_request& req) -> caf::result<predict_reply> { return on_predict(self, req); },
      [=](algo::rollout& r) -> caf::result<train_ack> { return on_rollout(self, r); },
      [=](opponent_request& req) -> caf::result<opponent_reply> { return on_opponent_request(self, req); },
      [=](episode_report& report) { on_episode_report(self, report); },
      [=](agent_atom, std::uint32_t id, agent_actor agent) { on_agent(self, id, std::move(agent)); },
      [=](stop_atom) -> caf::result<cluster_final> { return on_stop(self); },
  };
}

}  // namespace

cluster_gateway_actor spawn_gateway(caf::actor_system& sys, const gateway_config& config,
                                    std::vector<gateway_policy> policies) {
  if (policies.empty()) throw std::invalid_argument("spawn_gateway: no policy to serve");
  for (const auto& p : policies)
    if (p.owners.empty() || p.owners.size() != p.learners.size())
      throw std::invalid_argument("spawn_gateway: one model-owner and one learner per replica");
  return sys.spawn(gateway, config, std::move(policies));
}

}  // namespace troupe::actors
