// The rogue-peer suite: a real `troupe serve` with a real worker training
// alongside, attacked by tests/rogue/rogue_peer.cpp (CAF's own network
// layer, and raw TCP for slow and flooding peers). The run must train on
// and solve; nothing from a node without the token may reach the
// model-owner, the learner or the metrics; every rejection is counted in
// summary.json; the learner's memory stays bounded.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

using namespace troupe::tests;
using nlohmann::json;

namespace {

const std::string rogue_token = "rogue-suite-token";

// Resident memory of a process, in MiB (VmRSS).
double rss_mib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return -1;
}

json rogue(const std::string& args) {
  const auto r = run_command("timeout 180 " + std::string(TROUPE_ROGUE) + " " + args, false);
  INFO("troupe_rogue " << args << ":\n" << r.output);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.output);
}

// The names Troupe's actors give themselves: none may answer a peer.
const std::set<std::string> troupe_actor_names = {
    "model_owner", "learner", "metrics", "frame_hub", "evaluator", "agent", "reply_courier",
    "frame_subscriber"};

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("rogue peers: nothing reaches the parameters, the run trains on and solves") {
  const std::string dir = fresh_dir("rogue");
  const std::string log = dir + ".learner.log";
  // A slow worker (one agent, 4 envs) and a longer window (the mean of 1500
  // episodes must reach 475), so the run is still training when the attack
  // (mostly its timeouts: 31 s here when each of three silent messages
  // waited 5 s; they wait 2 s now) is over; n_steps 10 and lr 0.001, with
  // which such a run solved in 0.8-0.9M env steps (seeds 1-3; about 70 s here
  // through the gateway). Tight timeouts, so the suite need not wait long.
  child_process learner({TROUPE_BINARY, "serve", cartpole_config, "--listen", "127.0.0.1:0", "--token", rogue_token,
                         "--run-dir", dir, "--view-port", "0", "--set", "agents.count=0", "--set",
                         "env.envs_per_agent=4", "--set", "run.stop.window=1500", "--set",
                         "algo.n_steps=10", "--set", "algo.lr=0.001", "--set",
                         "cluster.handshake_timeout_s=3", "--set",
                         "cluster.idle_timeout_s=10", "--set", "run.stop.wall_seconds=600", "--set",
                         "log.progress=false"},
                        log);
  const std::string cluster = learner_address(log);
  const std::string view = wait_for_log(log, std::regex("frame stream on (127\\.0\\.0\\.1:[0-9]+)"));
  INFO(read_file(log));
  REQUIRE_FALSE(cluster.empty());
  REQUIRE_FALSE(view.empty());
  child_process worker({TROUPE_BINARY, "join", cluster, "--agents", "1", "--token", rogue_token, "--name", "w1"},
                       dir + ".worker.log");
  REQUIRE_FALSE(wait_for_log(log, std::regex("worker 'w1' joined")).empty());
  std::this_thread::sleep_for(std::chrono::seconds(1));  // training under way
  const double rss_before = rss_mib(learner.pid());

  const json c = rogue("cluster " + cluster + " --token " + rogue_token + " --ids 300 --envs 4 --steps 10");
  const json v = rogue("view " + view + " --ids 300");
  const json f = rogue("flood " + cluster + " --connections 1000 --limit 20");
  const double rss_after = rss_mib(learner.pid());
  REQUIRE_MESSAGE(learner.running(), "the learner did not survive the attack");
  CHECK(worker.running());
  INFO("cluster report: " << c.dump(1));
  INFO("view report: " << v.dump(1));
  INFO("flood report: " << f.dump(1));

  // Who a peer can reach at all: Troupe's gateway and frame stream gate (both
  // refuse a stranger), and CAF's own spawn server and per-node helpers.
  const auto gateway = c["gateway_id"].get<long>();
  const auto gate = v["gate_id"].get<long>();
  for (const json* report : {&c, &v}) {
    const json& e = (*report)["enumeration"];
    CHECK(e["unreachable"].get<int>() >= 280);
    std::set<long> refused;
    for (const auto& r : e["refused"]) refused.insert(r["id"].get<long>());
    CHECK(refused == std::set<long>{gateway, gate});
    for (const auto& a : e["answered"]) {
      const std::string answer = a["answer"];
      for (const auto& name : troupe_actor_names)
        CHECK_MESSAGE(answer.find("\"" + name + "\"") == std::string::npos, answer);
    }
  }
  // Every message of every protocol, garbage in every field: refused by the
  // gateway and the gate, whoever sends it (only CAF's own actors answer
  // their own questions).
  CHECK(c["unjoined_to_gateway"]["answered"].empty());
  CHECK(c["unjoined_to_gateway"]["sent"].get<int>() >= 40);
  CHECK(c["everything_to_reachable"][std::to_string(gateway)]["answered"].empty());
  CHECK(c["everything_to_reachable"][std::to_string(gate)]["answered"].empty());
  CHECK(v["everything_to_gate"]["answered"].empty());
  for (const auto& [id, seen] : c["everything_to_absent"].items()) CHECK(seen["answered"].empty());
  // As a worker with the token: every malformed message rejected; the valid
  // ones (a predict, a rollout) accepted; a replay of that rollout refused.
  REQUIRE(c["joined"] == true);
  const json& w = c["as_worker"];
  CHECK(w["sent"] == w["rejected"]);
  CHECK_FALSE(w.contains("accepted_garbage"));
  CHECK(w["valid_predict"] == true);
  CHECK(w["accepted_rollouts"] == 1);
  CHECK(w["everything_to_reachable"][std::to_string(gateway)]["answered"].empty());
  CHECK(c["huge_message_refused"] == true);
  CHECK(c["gateway_alive_after"] == true);
  // The frame stream: no frame without the token, none with a wrong one.
  CHECK(v["frame_without_token"] == false);
  CHECK(v["admitted_with_wrong_token"] == false);
  CHECK(v["frame_without_token_after"] == false);
  CHECK(v["gate_alive_after"] == true);
  // Slow and flooding peers are dropped: silent and partial ones at the
  // handshake timeout (3 s), a 4 GiB header at once, a flood beyond the
  // per-host limit at once and the rest at the timeout.
  CHECK(f["silent_closed_after_s"].get<double>() >= 2.5);
  CHECK(f["silent_closed_after_s"].get<double>() < 6);
  CHECK(f["partial_closed_after_s"].get<double>() >= 2.5);
  CHECK(f["partial_closed_after_s"].get<double>() < 6);
  CHECK(f["huge_header_closed_after_s"].get<double>() >= 0);
  CHECK(f["huge_header_closed_after_s"].get<double>() < 1);
  CHECK(f["flood_opened"] == 1000);
  CHECK(f["flood_never_closed"] == 0);
  CHECK(f["flood_closed_within_1s"].get<int>() >= 980);
  CHECK(f["flood_last_closed_after_s"].get<double>() < 6);
  // Memory: a 4 GiB header, an 80 MB message and a thousand connections
  // later, the learner holds about what it held.
  CHECK(rss_before > 0);
  CHECK(rss_after < rss_before + 150);

  // The run goes on and solves; then what it counted.
  REQUIRE(learner.wait_exit(std::chrono::seconds(600)) == 0);
  CHECK(worker.wait_exit(std::chrono::seconds(30)) == 0);
  const json s = read_json(dir + "/summary.json");
  INFO("summary: " << s.dump(1));
  CHECK(s["solved"] == true);
  for (const char* who : {"model_owner", "learner", "replicas", "metrics"})
    CHECK(s["refused_from_outside"][who] == 0);
  // Every update the learner made came through the gateway's checks: one per
  // relayed rollout (the worker's, and the one valid rollout of the rogue).
  CHECK(s["updates"].get<long>() + s["updates_skipped"].get<long>() + s["updates_refused"].get<long>() ==
        s["cluster"]["rollouts_relayed"].get<long>());
  check_accounting(s);
  const json& cl = s["cluster"];
  CHECK(cl["messages_rejected"].get<long>() >= w["sent"].get<long>() + 8);
  CHECK(cl["dropped_at_door"].get<long>() >= 40);
  CHECK(cl["workers_refused"].get<long>() >= 2);
  CHECK(cl["connections"]["refused"].get<long>() >= 980);
  CHECK(cl["connections"]["timed_out"].get<long>() >= 2);
  CHECK(cl["connections"]["bad_frames"].get<long>() >= 3);  // 4 GiB header, 80 MB message, routed
  const json& fs = s["frame_stream"];
  CHECK(fs["viewers_refused"].get<long>() >= 1);
  CHECK(fs["requests_refused"].get<long>() >= 1);
  CHECK(fs["dropped_at_door"].get<long>() >= 40);
}
}
