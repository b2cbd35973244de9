// troupe_rogue: a peer that does not play by the rules, for the rogue-peer
// suite (tests/e2e/rogue_peer_test.cpp). It uses CAF's own network layer
// against a real `troupe serve`:
//
//   troupe_rogue cluster HOST:PORT --token T [--ids N] [--envs N] [--steps N]   the cluster port
//   troupe_rogue view HOST:PORT [--ids N]                 a frame stream
//   troupe_rogue flood HOST:PORT [--connections N]        slow and flooding peers (raw TCP)
//
// and prints what it saw as JSON on stdout. It never decides pass or fail:
// the test reads the report and the learner's summary.json.
//
// How it reaches actors it was never given: CAF 0.17 addresses a remote
// actor by (node, actor id). A forwarding_actor_proxy for any such pair,
// made here the way the middleman's BASP broker makes its own (with that
// broker as its destination), sends through the existing connection; the
// learner's node then delivers to whatever actor of its registry has the
// id, or bounces the request ("unknown destination").
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>
#include <caf/forwarding_actor_proxy.hpp>
#include <caf/io/all.hpp>
#include <caf/io/basp_broker.hpp>
#include <nlohmann/json.hpp>

#include "actors/cluster/gateway.hpp"
#include "actors/net/network_setup.hpp"
#include "actors/errors.hpp"
#include "actors/frames/frame_stream.hpp"
#include "tests/actors/network_system.hpp"

using namespace troupe::actors;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// A message that nobody answers costs this much (three of the cluster
// attack's do); a loopback answer takes milliseconds, even on a busy machine.
constexpr auto ask_timeout = 2s;
// The run's env.envs_per_agent (--envs): the rows of a well-shaped request;
// and its algo.n_steps (--steps): the steps of a well-shaped rollout.
int envs = 64;
int steps = 5;
// CAF 0.17 cannot send an infinity: its serializer (detail::pack754) halves
// it forever, hanging the sender's network thread. A NaN it sends arrives as
// some finite number. So the extremes sent are NaN and the largest floats.
const float nan = std::numeric_limits<float>::quiet_NaN();
const float big = std::numeric_limits<float>::max();

// What came back for one message.
struct answer {
  bool replied = false;      // a value, not an error
  bool unreachable = false;  // CAF bounced it: no such actor there
  bool timed_out = false;
  std::string text;
};

answer ask(caf::scoped_actor& self, const caf::actor& to, caf::message msg) {
  answer a;
  self->request(to, ask_timeout, std::move(msg))
      .receive(
          [&](caf::error& err) {
            a.text = caf::to_string(err);
            a.timed_out = err == caf::sec::request_timeout;
            a.unreachable = err == caf::exit_reason::remote_link_unreachable ||
                            err == caf::sec::request_receiver_down;
          },
          caf::others >> [&](caf::message_view& x) -> caf::result<caf::message> {
            // An empty answer: a handler that returns nothing took it.
            a.replied = x.content().size() > 0;
            a.text = caf::to_string(x.content());
            return caf::message{};
          });
  return a;
}

// A proxy for actor `id` on `node`, routed through this process's BASP broker.
caf::actor proxy_for(caf::actor_system& sys, const caf::node_id& node, caf::actor_id id) {
  caf::actor_config cfg;
  auto broker = sys.middleman().named_broker<caf::io::basp_broker>(caf::atom("BASP"));
  return caf::actor_cast<caf::actor>(caf::make_actor<caf::forwarding_actor_proxy, caf::strong_actor_ptr>(
      id, node, &sys, cfg, std::move(broker)));
}

troupe::algo::rollout garbage_rollout(std::uint32_t agent) {
  troupe::algo::rollout r;
  r.agent_id = agent;
  r.n_steps = -3;
  r.n_envs = 1 << 30;
  r.obs_size = 4;
  r.state_size = 1 << 24;  // no recurrent policy here, and no states to go with it
  r.observations = {nan, big, -big, 1e38f};
  r.rewards = {1e30f};
  return r;
}

// A rollout of the run's shapes (CartPole: 4 floats per observation, one
// action per step) with `steps` x `envs` samples.
troupe::algo::rollout shaped_rollout(std::uint32_t agent, int steps, int envs, std::uint64_t version) {
  troupe::algo::rollout r;
  r.agent_id = agent;
  r.n_steps = steps;
  r.n_envs = envs;
  r.obs_size = 4;
  r.action_size = 1;
  const size_t n = size_t(steps) * size_t(envs);
  r.observations.assign((n + size_t(envs)) * 4, 0.01f);
  r.actions.assign(n, 1.0f);
  r.rewards.assign(n, 1.0f);
  r.terminated.assign(n, 0);
  r.truncated.assign(n, 0);
  r.behaviour_logp.assign(n, -0.69f);
  r.behaviour_version.assign(n, version);
  return r;
}

// One garbage instance of every message type of every protocol in
// actors/messages/, and of the system messages BASP carries.
std::vector<std::pair<std::string, caf::message>> every_message(std::uint32_t agent) {
  std::vector<std::pair<std::string, caf::message>> out;
  auto add = [&](std::string name, caf::message m) { out.emplace_back(std::move(name), std::move(m)); };
  add("predict_request: NaN/-3.4e38, negative rows", caf::make_message(predict_request{agent, -5, {nan, -big}, {}, 99}));
  add("predict_request: huge rows, no data", caf::make_message(predict_request{agent, 1 << 30, {}, {}, -1}));
  add("predict_reply", caf::make_message(predict_reply{{nan}, {big}, {1e30f}, ~0ull, {}}));
  add("train_ack", caf::make_message(train_ack{~0ull, true}));
  add("replica_update: a stranger's delta", caf::make_message(replica_update{0, 1, std::vector<float>(64, 1e30f)}));
  episode_report report;
  report.agent_id = agent;
  report.env_steps = -1000000000000;
  report.returns = {nan, 1e30f};
  report.lengths = {-1};
  report.predicts = -3;
  report.predict_seconds = -1;
  add("episode_report: NaN, negative counts", caf::make_message(report));
  opponent_request other_seat;
  other_seat.agent_id = agent;
  other_seat.event_games = {-1, 1 << 30};
  other_seat.event_ended = {7};
  other_seat.games = {1 << 30};
  other_seat.observations = {nan};
  add("opponent_request: events out of step, a game no agent has", caf::make_message(other_seat));
  add("node_stats", caf::make_message(node_stats{"rogue", -1, -1, nan, 1e300}));
  add("join_request: wrong token", caf::make_message(join_request{cluster_protocol_version, "not-the-token", "rogue", 1}));
  add("join_request: no token, 10^9 agents", caf::make_message(join_request{cluster_protocol_version, "", "rogue", 1000000000}));
  add("join_request: other protocol", caf::make_message(join_request{-7, "", "rogue", 1}));
  add("join_reply", caf::make_message(join_reply{0, 0, {0}, {"run: {name: evil}"}, {1}}));
  add("cluster_final", caf::make_message(cluster_final{}));
  add("stream_final", caf::make_message(stream_final{}));
  add("door_counts", caf::make_message(door_counts{}));
  add("batch_stats", caf::make_message(batch_stats{}));
  add("agent_final", caf::make_message(agent_final{agent, -1, -1, ~0ull}));
  add("learner_final", caf::make_message(learner_final{}));
  add("metrics_totals", caf::make_message(metrics_totals{}));
  add("stop_request: solved", caf::make_message(stop_request{troupe::run::stop_reason::solved}));
  add("evaluation_report: passed", caf::make_message(evaluation_report{1, 100, 500.0, true}));
  env_frame frame;
  frame.image.width = 1 << 20;
  frame.image.height = 1 << 20;
  add("env_frame: 2^20 x 2^20, no pixels", caf::make_message(frame));
  add("rollout: garbage shapes", caf::make_message(garbage_rollout(agent)));
  troupe::algo::train_result forged;
  forged.applied = true;
  forged.rollouts = {{agent, 1}};
  forged.samples = 1 << 30;
  forged.updates = 1;
  forged.version = ~0ull;
  add("train_result: applied, huge version", caf::make_message(forged));
  add("checkpoint_meta", caf::make_message(troupe::model::checkpoint_meta{}));
  add("start", caf::make_message(start_atom_v));
  add("stop", caf::make_message(stop_atom_v));
  add("stats", caf::make_message(stats_atom_v));
  add("drain", caf::make_message(drain_atom_v));
  add("totals", caf::make_message(totals_atom_v));
  add("checkpoint to /tmp/rogue.pt", caf::make_message(checkpoint_atom_v, std::string("/tmp/rogue.pt"), troupe::model::checkpoint_meta{}));
  add("evaluate", caf::make_message(evaluate_atom_v));
  add("render", caf::make_message(render_atom_v));
  add("next_frame -1", caf::make_message(next_frame_atom_v, std::int32_t{-1}));
  add("next_frame 2^30", caf::make_message(next_frame_atom_v, std::int32_t{1 << 30}));
  add("agent: slot 0 is nobody", caf::make_message(agent_atom_v, std::int32_t{0}, agent_actor{}));
  add("agent: worker id, nobody", caf::make_message(agent_atom_v, agent, agent_actor{}));
  add("metrics: nobody", caf::make_message(metrics_atom_v, metrics_actor{}));
  // peers_atom's list of actor handles is a type no node registers for the
  // network: CAF can neither send nor read it there.
  add("watch: wrong token", caf::make_message(watch_atom_v, std::string("not-the-token")));
  add("error", caf::make_message(caf::make_error(caf::sec::runtime_error)));
  add("down_msg about nobody", caf::make_message(caf::down_msg{caf::actor_addr{}, caf::exit_reason::kill}));
  add("exit_msg: kill", caf::make_message(caf::exit_msg{caf::actor_addr{}, caf::exit_reason::kill}));
  add("exit_msg: user_shutdown", caf::make_message(caf::exit_msg{caf::actor_addr{}, caf::exit_reason::user_shutdown}));
  add("sys get info", caf::make_message(caf::sys_atom_v, caf::get_atom_v, std::string("info")));
  add("a string and an int", caf::make_message(std::string("garbage"), 42));
  return out;
}

// Every message of every_message() to `to`; the names of those that got a
// value back (rather than an error).
json send_everything(caf::scoped_actor& self, const caf::actor& to, std::uint32_t agent) {
  json answered = json::array();
  int sent = 0, refused = 0, timed_out = 0;
  for (auto& [name, msg] : every_message(agent)) {
    ++sent;
    const answer a = ask(self, to, msg);
    if (a.replied) answered.push_back(name + " -> " + a.text);
    else if (a.timed_out) ++timed_out;
    else ++refused;
  }
  return {{"sent", sent}, {"refused", refused}, {"timed_out", timed_out}, {"answered", answered}};
}

// Asks actor ids 1..n on `node` who is there ("sys get info", a request every
// scheduled actor answers unless something drops it first).
json enumerate(caf::actor_system& sys, caf::scoped_actor& self, const caf::node_id& node, int n,
               std::vector<caf::actor_id>& reachable) {
  json answered = json::array(), refused = json::array();
  int unreachable = 0, timed_out = 0;
  for (int id = 1; id <= n; ++id) {
    const answer a = ask(self, proxy_for(sys, node, caf::actor_id(id)),
                         caf::make_message(caf::sys_atom_v, caf::get_atom_v, std::string("info")));
    if (a.unreachable) {
      ++unreachable;
      continue;
    }
    if (a.timed_out) {
      ++timed_out;
      continue;
    }
    reachable.push_back(caf::actor_id(id));
    (a.replied ? answered : refused).push_back({{"id", id}, {"answer", a.text}});
  }
  return {{"ids", n}, {"unreachable", unreachable}, {"timed_out", timed_out},
          {"answered", answered}, {"refused", refused}};
}

bool gateway_answers(caf::scoped_actor& self, const cluster_gateway_actor& gw) {
  // A join with a wrong token: answered (refused) by a live gateway.
  bool answered = false;
  self->request(gw, ask_timeout, join_request{cluster_protocol_version, "wrong", "probe", 1})
      .receive([&](const join_reply&) { answered = true; },
               [&](caf::error& err) { answered = code_of(err) == errc::refused; });
  return answered;
}

template <class Message, class Reply>
bool refused(caf::scoped_actor& self, const cluster_gateway_actor& gw, Message m, Reply* = nullptr) {
  bool no = false;
  self->request(gw, ask_timeout, std::move(m)).receive([](const Reply&) {}, [&](caf::error&) { no = true; });
  return no;
}

int cluster(const std::string& host, std::uint16_t port, const std::string& token, int ids) {
  troupe::tests::network_system node;
  caf::actor_system& sys = *node.sys;
  caf::scoped_actor self{sys};
  json report;
  auto gw = sys.middleman().remote_actor<cluster_gateway_actor>(host, port);
  if (!gw) {
    std::cerr << "troupe_rogue: cannot connect: " << sys.render(gw.error()) << "\n";
    return 1;
  }
  const caf::node_id learner = gw->node();
  report["gateway_id"] = gw->id();

  // 1. Not joined: every message of every protocol, to the gateway.
  report["unjoined_to_gateway"] = send_everything(self, caf::actor_cast<caf::actor>(*gw), 1u << 20);
  self->send(*gw, episode_report{1u << 20, 500, {500.0f}, {500}, 0.01, 1, "rogue"});
  self->send(*gw, agent_atom_v, std::uint32_t{1u << 20}, agent_actor{});

  // 2. Who else is there? Every id, then everything to each one that answers.
  std::vector<caf::actor_id> reachable;
  report["enumeration"] = enumerate(sys, self, learner, ids, reachable);
  json per_id = json::object();
  for (caf::actor_id id : reachable)
    per_id[std::to_string(id)] = send_everything(self, proxy_for(sys, learner, id), 1u << 20);
  report["everything_to_reachable"] = per_id;
  // A sample of ids that are not reachable, to show they stay so.
  json absent = json::object();
  for (caf::actor_id id : {caf::actor_id(2), caf::actor_id(ids / 2), caf::actor_id(ids)})
    if (std::find(reachable.begin(), reachable.end(), id) == reachable.end())
      absent[std::to_string(id)] = send_everything(self, proxy_for(sys, learner, id), 1u << 20);
  report["everything_to_absent"] = absent;

  // 3. As a worker with the token: garbage in every field. From a node of
  // its own: the messages above leave this connection unusable (the
  // learner's other connections are unaffected, as the run shows), so a
  // fresh node joins.
  {
    troupe::tests::network_system worker_node;
    caf::actor_system& sys = *worker_node.sys;
    caf::scoped_actor self{sys};
    auto gw = sys.middleman().remote_actor<cluster_gateway_actor>(host, port);
    if (!gw) {
      std::cerr << "troupe_rogue: cannot connect again: " << sys.render(gw.error()) << "\n";
      return 1;
    }
  join_reply joined;
  bool is_worker = false;
  self->request(*gw, ask_timeout, join_request{cluster_protocol_version, token, "rogue-worker", 1})
      .receive([&](join_reply& r) { joined = r, is_worker = true; },
               [&](caf::error& err) { report["join_error"] = caf::to_string(err); });
  report["joined"] = is_worker;
  if (is_worker) {
    const std::uint32_t me = joined.first_agent_id;
    json w;
    int sent = 0, rejected = 0;
    auto expect_refusal = [&](const std::string& what, bool was_refused) {
      ++sent;
      if (was_refused) ++rejected;
      else w["accepted_garbage"].push_back(what);
    };
    const predict_reply* pr = nullptr;
    const train_ack* ta = nullptr;
    const join_reply* jr = nullptr;
    expect_refusal("predict: wrong rows", refused(self, *gw, predict_request{me, 3, std::vector<float>(12, 0.1f)}, pr));
    expect_refusal("predict: negative rows", refused(self, *gw, predict_request{me, -envs, {}}, pr));
    expect_refusal("predict: 2^30 rows", refused(self, *gw, predict_request{me, 1 << 30, {}}, pr));
    // CAF 0.17 delivers a NaN as some finite number, so these may arrive as
    // well-shaped data (the gateway refuses what arrives non-finite): recorded,
    // not required.
    w["predict_nan_refused"] = refused(self, *gw, predict_request{me, envs, std::vector<float>(envs * 4, nan)}, pr);
    // Well-shaped and finite, however large: a token holder may send it. The
    // learner must survive it (its answer has finite numbers, or is an error).
    w["predict_3.4e38_refused"] = refused(self, *gw, predict_request{me, envs, std::vector<float>(envs * 4, big)}, pr);
    expect_refusal("predict: bad policy row", refused(self, *gw, predict_request{me, envs, std::vector<float>(envs * 4, 0.1f), {}, envs}, pr));
    expect_refusal("predict: unknown agent", refused(self, *gw, predict_request{me + 1, envs, std::vector<float>(envs * 4, 0.1f)}, pr));
    expect_refusal("predict: someone else's agent", refused(self, *gw, predict_request{1u << 20, envs, std::vector<float>(envs * 4, 0.1f)}, pr));
    // One valid predict: the version replies carry.
    std::uint64_t version = 0;
    self->request(*gw, ask_timeout, predict_request{me, envs, std::vector<float>(envs * 4, 0.01f)})
        .receive([&](const predict_reply& r) { version = r.version; w["valid_predict"] = true; },
                 [&](caf::error& err) { w["valid_predict"] = caf::to_string(err); });
    expect_refusal("rollout: garbage shapes", refused(self, *gw, garbage_rollout(me), ta));
    expect_refusal("rollout: other steps", refused(self, *gw, shaped_rollout(me, steps + 2, envs, version), ta));
    auto nan_rollout = shaped_rollout(me, steps, envs, version);
    nan_rollout.rewards[3] = nan;
    nan_rollout.rewards[0] = 0.5f;  // whatever the NaN arrives as, not the valid one below
    w["rollout_nan_refused"] = refused(self, *gw, nan_rollout, ta);
    expect_refusal("rollout: unknown agent", refused(self, *gw, shaped_rollout(me + 7, steps, envs, version), ta));
    expect_refusal("rollout: a version from the future",
                   refused(self, *gw, shaped_rollout(me, steps, envs, version + 1000000), ta));
    // A valid rollout (the token makes it legitimate), then the same again.
    auto valid = shaped_rollout(me, steps, envs, version);
    valid.sequence = 0;
    int accepted_rollouts = 0;
    self->request(*gw, ask_timeout, valid)
        .receive([&](const train_ack&) { ++accepted_rollouts; }, [&](caf::error& err) { w["valid_rollout"] = caf::to_string(err); });
    expect_refusal("rollout: replayed", refused(self, *gw, valid, ta));
    // The run (CartPole) has no other seat to ask for.
    const opponent_reply* orep = nullptr;
    opponent_request other_seat{me};
    other_seat.games = {0};
    other_seat.observations.assign(4, 0.1f);
    expect_refusal("opponent: a run without games", refused(self, *gw, other_seat, orep));
    other_seat.agent_id = me + 1;
    expect_refusal("opponent: unknown agent", refused(self, *gw, other_seat, orep));
    expect_refusal("join again", refused(self, *gw, join_request{cluster_protocol_version, token, "again", 1}, jr));
    cluster_final* cf = nullptr;
    expect_refusal("stop the gateway", refused(self, *gw, stop_atom_v, cf));
    self->send(*gw, episode_report{me, 5, {1.0f}, {-5}, 0.0, 1, ""});
    self->send(*gw, agent_atom_v, me, caf::actor_cast<agent_actor>(proxy_for(sys, learner, gw->id())));
    w["sent"] = sent;
    w["rejected"] = rejected;
    w["accepted_rollouts"] = accepted_rollouts;
    w["valid_predict_version"] = version;
    // And, joined, everything again to every reachable id.
    json again = json::object();
    for (caf::actor_id id : reachable)
      again[std::to_string(id)] = send_everything(self, proxy_for(sys, learner, id), me);
    w["everything_to_reachable"] = again;
    report["as_worker"] = w;
  }
  }

  // 4. A message far over the size limit: the door cuts the connection.
  {
    troupe::tests::network_system big_node;
    caf::actor_system& other = *big_node.sys;
    caf::scoped_actor big{other};
    auto gw2 = other.middleman().remote_actor<cluster_gateway_actor>(host, port);
    if (gw2) {
      const predict_reply* pr = nullptr;
      report["huge_message_refused"] =
          refused(big, *gw2, predict_request{1, 1, std::vector<float>(20 << 20, 0.5f)}, pr);
    }
  }

  // 5. The gateway, asked as if by itself: a routed message naming the
  // learner's node and the gateway's id as the sender. The door cuts such a
  // connection; the gateway would refuse it (it is in the registry).
  {
    troupe::tests::network_system spoof_node;
    caf::actor_system& other = *spoof_node.sys;
    auto gw3 = other.middleman().remote_actor<cluster_gateway_actor>(host, port);
    if (gw3) {
      auto as_gateway = proxy_for(other, learner, gw3->id());
      caf::anon_send(caf::actor_cast<caf::actor>(*gw3), stop_atom_v);
      // The proxy as the sender: BASP writes a routed message.
      caf::actor_cast<caf::abstract_actor*>(*gw3)->enqueue(
          caf::make_mailbox_element(caf::actor_cast<caf::strong_actor_ptr>(as_gateway),
                                    caf::make_message_id(), {}, stop_atom_v),
          nullptr);
      std::this_thread::sleep_for(500ms);
    }
  }

  // The gateway is still there and answers.
  auto gw4 = sys.middleman().remote_actor<cluster_gateway_actor>(host, port);
  report["gateway_alive_after"] = gw4 && gateway_answers(self, *gw4);
  std::cout << report.dump(2) << std::endl;
  return 0;
}

int view(const std::string& host, std::uint16_t port, int ids) {
  troupe::tests::network_system node;
  caf::actor_system& sys = *node.sys;
  caf::scoped_actor self{sys};
  json report;
  auto gate = sys.middleman().remote_actor<frame_stream_actor>(host, port);
  if (!gate) {
    std::cerr << "troupe_rogue: cannot connect: " << sys.render(gate.error()) << "\n";
    return 1;
  }
  bool got_frame = false;
  std::string why;
  self->request(*gate, ask_timeout, next_frame_atom_v, std::int32_t{0})
      .receive([&](const env_frame&) { got_frame = true; },
               [&](caf::error& err) { why = caf::to_string(err); });
  report["frame_without_token"] = got_frame;
  report["frame_without_token_answer"] = why;
  bool admitted = false;
  self->request(*gate, ask_timeout, watch_atom_v, std::string("not-the-token"))
      .receive([&](std::int32_t) { admitted = true; }, [](caf::error&) {});
  report["admitted_with_wrong_token"] = admitted;
  report["everything_to_gate"] = send_everything(self, caf::actor_cast<caf::actor>(*gate), 0);
  std::vector<caf::actor_id> reachable;
  report["enumeration"] = enumerate(sys, self, gate->node(), ids, reachable);
  report["gate_id"] = gate->id();
  // Afterwards, from a node of its own (the messages above leave this
  // connection unusable; the learner's other connections are unaffected).
  got_frame = false;
  why.clear();
  {
    troupe::tests::network_system after_node;
    caf::actor_system& after = *after_node.sys;
    caf::scoped_actor asker{after};
    auto gate_again = after.middleman().remote_actor<frame_stream_actor>(host, port);
    if (gate_again)
      asker->request(*gate_again, ask_timeout, next_frame_atom_v, std::int32_t{0})
          .receive([&](const env_frame&) { got_frame = true; },
                   [&](caf::error& err) { why = caf::to_string(err); });
  }
  report["frame_without_token_after"] = got_frame;
  // Alive: it still answers, with the same refusal as before the attack.
  report["gate_alive_after"] = !why.empty() && why == report["frame_without_token_answer"];
  std::cout << report.dump(2) << std::endl;
  return 0;
}

// --- slow and flooding peers: plain TCP ------------------------------------

int connect_to(const std::string& host, std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  ::inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string basp_header(unsigned char operation, std::uint32_t payload_len) {
  std::string h(32, '\0');
  h[0] = char(operation);
  h[4] = char(payload_len >> 24);
  h[5] = char(payload_len >> 16);
  h[6] = char(payload_len >> 8);
  h[7] = char(payload_len);
  return h;
}

// Seconds after `start` at which the other side closed each of `fds`
// (-1: still open after `limit`); what it sends meanwhile is read and dropped.
std::vector<double> close_times(const std::vector<int>& fds, double limit) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> closed(fds.size(), -1);
  std::vector<pollfd> polled;
  std::vector<size_t> index;
  char buf[4096];
  while (true) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    polled.clear();
    index.clear();
    for (size_t i = 0; i < fds.size(); ++i)
      if (fds[i] >= 0 && closed[i] < 0) {
        polled.push_back({fds[i], POLLIN, 0});
        index.push_back(i);
      }
    if (polled.empty() || elapsed > limit) break;
    if (::poll(polled.data(), polled.size(), 50) <= 0) continue;
    for (size_t k = 0; k < polled.size(); ++k) {
      if (!(polled[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(polled[k].fd, buf, sizeof buf);
      if (n <= 0) closed[index[k]] = elapsed;
    }
  }
  return closed;
}

int flood(const std::string& host, std::uint16_t port, int connections, double limit) {
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);
  json report;
  // A peer that connects and sends nothing; one that sends a partial frame
  // (a handshake header, then part of its payload) and then nothing, forever;
  // one whose header announces a 4 GiB message.
  const int silent = connect_to(host, port);
  const int partial = connect_to(host, port);
  if (partial >= 0) {
    const std::string start = basp_header(1, 1000) + std::string(10, 'x');
    (void)!::write(partial, start.data(), start.size());
  }
  const int huge = connect_to(host, port);
  if (huge >= 0) {
    const std::string h = basp_header(1, 0xffffffffu);
    (void)!::write(huge, h.data(), h.size());
  }
  const auto slow = close_times({silent, partial, huge}, limit);
  report["silent_closed_after_s"] = slow[0];
  report["partial_closed_after_s"] = slow[1];
  report["huge_header_closed_after_s"] = slow[2];
  // Many at once, each sending nothing.
  std::vector<int> many;
  for (int i = 0; i < connections; ++i) many.push_back(connect_to(host, port));
  int opened = 0;
  for (int fd : many) opened += fd >= 0;
  const auto times = close_times(many, limit);
  int within_1s = 0, later = 0, never = 0;
  double last = 0;
  for (size_t i = 0; i < many.size(); ++i) {
    if (many[i] < 0) continue;
    if (times[i] < 0) ++never;
    else if (times[i] < 1.0) ++within_1s;
    else ++later, last = std::max(last, times[i]);
  }
  report["flood_opened"] = opened;
  report["flood_closed_within_1s"] = within_1s;
  report["flood_closed_later"] = later;
  report["flood_last_closed_after_s"] = last;
  report["flood_never_closed"] = never;
  for (int fd : many)
    if (fd >= 0) ::close(fd);
  for (int fd : {silent, partial, huge})
    if (fd >= 0) ::close(fd);
  std::cout << report.dump(2) << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto usage = [] {
    std::cerr << "usage: troupe_rogue cluster|view|flood HOST:PORT [--token T] [--ids N] "
                 "[--envs N] [--steps N] [--connections N] [--limit SECONDS]\n";
    return 2;
  };
  if (argc < 3) return usage();
  const std::string mode = argv[1];
  std::string token;
  int ids = 200, connections = 1000;
  double limit = 30;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--token") token = argv[i + 1];
    else if (flag == "--ids") ids = std::stoi(argv[i + 1]);
    else if (flag == "--envs") envs = std::stoi(argv[i + 1]);
    else if (flag == "--steps") steps = std::stoi(argv[i + 1]);
    else if (flag == "--connections") connections = std::stoi(argv[i + 1]);
    else if (flag == "--limit") limit = std::stod(argv[i + 1]);
    else return usage();
  }
  const auto [host, port] = parse_host_port(argv[2], "HOST:PORT");
  if (mode == "cluster") return cluster(host, port, token, ids);
  if (mode == "view") return view(host, port, ids);
  if (mode == "flood") return flood(host, port, connections, limit);
  return usage();
}
