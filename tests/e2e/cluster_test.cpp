// Cluster mode over loopback, as users run it: a learner process (troupe
// serve, no local agents) and worker processes (troupe join) over real TCP.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"
#include "tests/e2e/test_pki.hpp"

namespace fs = std::filesystem;
using troupe::tests::cartpole_config;
using troupe::tests::child_process;
using troupe::tests::learner_address;
using troupe::tests::read_file;
using troupe::tests::troupe_binary;

namespace {

const std::string token = "loopback-test-token";

// A fresh run directory, and no old logs beside it (they would name an old
// learner's port).
std::string fresh_cluster_dir(const std::string& name) {
  const std::string dir = troupe::tests::fresh_dir("cluster_" + name);
  for (const char* log : {".learner.log", ".w1.log", ".w2.log", ".bad.log", ".log"})
    fs::remove(dir + log);
  return dir;
}

std::unique_ptr<child_process> start_learner(const std::string& dir,
                                             std::vector<std::string> extra = {}) {
  std::vector<std::string> args{troupe_binary, "serve", cartpole_config, "--listen", "127.0.0.1:0", "--token",
                                token, "--run-dir", dir, "--set", "agents.count=0",
                                "--set", "log.progress=false", "--set",
                                "run.stop.wall_seconds=120"};
  args.insert(args.end(), extra.begin(), extra.end());
  return std::make_unique<child_process>(args, dir + ".learner.log");
}

std::unique_ptr<child_process> start_worker(const std::string& address, const std::string& name,
                                            const std::string& log,
                                            const std::string& with_token = token) {
  return std::make_unique<child_process>(
      std::vector<std::string>{troupe_binary, "join", address, "--agents", "1", "--token", with_token,
                               "--name", name, "--retry", "5"},
      log);
}

nlohmann::json summary_of(const std::string& dir) {
  return troupe::tests::read_json(dir + "/summary.json");
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("cluster: a learner with no agents of its own and two workers solve CartPole-v1") {
  const std::string dir = fresh_cluster_dir("solve");
  auto learner = start_learner(dir);
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE_MESSAGE(!address.empty(), read_file(dir + ".learner.log"));
  auto w1 = start_worker(address, "w1", dir + ".w1.log");
  auto w2 = start_worker(address, "w2", dir + ".w2.log");
  INFO(read_file(dir + ".learner.log"));
  REQUIRE(learner->wait_exit(std::chrono::seconds(150)) == 0);
  // Workers are told the run has ended and leave cleanly.
  CHECK(w1->wait_exit(std::chrono::seconds(20)) == 0);
  CHECK(w2->wait_exit(std::chrono::seconds(20)) == 0);
  CHECK(read_file(dir + ".w1.log").find("the run has ended") != std::string::npos);
  const auto s = summary_of(dir);
  CHECK(s["solved"] == true);
  CHECK(s["cluster"]["workers_joined"] == 2);
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  // Both workers acted, each with its own agent, and their round trips were measured.
  std::set<std::string> names;
  for (const auto& n : s["nodes"]) {
    names.insert(n["node"].get<std::string>());
    CHECK(n["agents"] == 1);
    CHECK(n["env_steps"].get<long>() > 0);
    CHECK(n["predict_round_trip_ms"].get<double>() > 0);
  }
  CHECK(names == std::set<std::string>{"w1", "w2"});
}

TEST_CASE("cluster: a worker killed with SIGKILL mid-run costs only its samples in flight") {
  const std::string dir = fresh_cluster_dir("kill");
  auto learner = start_learner(dir);
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE(!address.empty());
  auto w1 = start_worker(address, "w1", dir + ".w1.log");
  auto w2 = start_worker(address, "doomed", dir + ".w2.log");
  // Wait until the doomed worker is acting, then kill it without warning.
  troupe::tests::wait_for_log(dir + ".w2.log", std::regex("joined"), 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  w2->signal(SIGKILL);
  CHECK(w2->wait_exit(std::chrono::seconds(10)) == 128 + SIGKILL);
  INFO(read_file(dir + ".learner.log"));
  REQUIRE(learner->wait_exit(std::chrono::seconds(150)) == 0);
  CHECK(w1->wait_exit(std::chrono::seconds(20)) == 0);
  CHECK(read_file(dir + ".learner.log").find("worker 'doomed' left") != std::string::npos);
  const auto s = summary_of(dir);
  CHECK(s["solved"] == true);
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
}

TEST_CASE("cluster: a wrong or missing token is refused within 5 seconds, and logged") {
  const std::string dir = fresh_cluster_dir("token");
  auto learner = start_learner(dir, {"--set", "run.stop.wall_seconds=20"});
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE(!address.empty());
  const auto start = std::chrono::steady_clock::now();
  auto bad = start_worker(address, "intruder", dir + ".bad.log", "not-the-token");
  CHECK(bad->wait_exit(std::chrono::seconds(5)) == 3);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(read_file(dir + ".bad.log").find("refused this worker: refused: wrong or missing cluster token") !=
        std::string::npos);
  // No token at all: refused before it even connects.
  const auto none = troupe::tests::run_command("env -u TROUPE_CLUSTER_TOKEN " + troupe_binary +
                                               " join " + address + " 2>&1");
  CHECK(none.exit_code == 2);
  CHECK(none.output.find("no cluster token") != std::string::npos);
  learner->signal(SIGINT);
  REQUIRE(learner->wait_exit(std::chrono::seconds(30)) == 0);
  CHECK(read_file(dir + ".learner.log").find("refused worker 'intruder'") != std::string::npos);
  CHECK(summary_of(dir)["cluster"]["workers_refused"] == 1);
}

TEST_CASE("cluster: a worker whose learner is unreachable retries, then exits with a message") {
  // Port 1 (tcpmux) is privileged and unused here: nothing answers on it.
  const std::string dir = fresh_cluster_dir("retry");
  const auto start = std::chrono::steady_clock::now();
  auto w = std::make_unique<child_process>(
      std::vector<std::string>{troupe_binary, "join", "127.0.0.1:1", "--token", token, "--retry", "1.5"},
      dir + ".log");
  CHECK(w->wait_exit(std::chrono::seconds(20)) == 1);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(1500));
  CHECK(read_file(dir + ".log").find("gave up: the learner at 127.0.0.1:1 was unreachable") !=
        std::string::npos);
}
}

TEST_SUITE("e2e") {
TEST_CASE("cluster over TLS: a worker with a certificate from the CA joins; others cannot") {
  const std::string dir = fresh_cluster_dir("tls");
  // A CA, and certificates it signs for the learner and a worker; a rogue
  // self-signed certificate for comparison.
  const auto pki = troupe::tests::make_test_pki(dir + "-pki", {"learner", "worker"});
  auto tls = pki.config("learner");
  tls.insert(tls.end(), {"--set", "run.stop.wall_seconds=30", "--set", "log.progress_seconds=0.2"});
  auto learner = start_learner(dir, tls);
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE_MESSAGE(!address.empty(), read_file(dir + ".learner.log"));
  CHECK(read_file(dir + ".learner.log").find("(TLS)") != std::string::npos);
  auto join = [&](const std::string& cert, const std::string& log) {
    std::vector<std::string> args{troupe_binary, "join", address, "--token", token, "--retry", "1"};
    if (!cert.empty())
      for (const std::string& a : pki.flags(cert)) args.push_back(a);
    return std::make_unique<child_process>(args, log);
  };
  // Without TLS, or with a certificate the CA did not sign: no handshake.
  CHECK(join("", dir + ".w1.log")->wait_exit(std::chrono::seconds(20)) == 1);
  CHECK(join("rogue", dir + ".bad.log")->wait_exit(std::chrono::seconds(20)) == 1);
  auto good = join("worker", dir + ".w2.log");
  CHECK_FALSE(troupe::tests::wait_for_log(dir + ".w2.log", std::regex("joined"), 20).empty());
  // Stop only once the worker's rollouts reach the learner.
  CHECK(troupe::tests::wait_for_env_steps(dir + "/metrics.csv") > 0);
  learner->signal(SIGINT);
  REQUIRE(learner->wait_exit(std::chrono::seconds(30)) == 0);
  CHECK(good->wait_exit(std::chrono::seconds(20)) == 0);
  const auto s = summary_of(dir);
  CHECK(s["cluster"]["workers_joined"] == 1);
  CHECK(s["env_steps"].get<long>() > 0);
}
}
