// End-to-end: Python environments through the real `troupe` binary. Training
// solves the pure-Python CartPole; an environment that raises or dies costs
// an agent restart, never the run or the accounting; one that cannot be made
// stops the command with exit code 2 before training; a worker hosts its own
// Python processes; and no host process outlives troupe, however it ends.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <memory>
#include <thread>
#include <utility>

#include "tests/bridges/python/host_processes.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace fs = std::filesystem;
using namespace troupe::tests;

namespace {

const std::string source = TROUPE_SOURCE_DIR;
const std::string test_envs_dir = source + "/tests/bridges/python";

// A short run on the test envs' Signal task (learned at once): `kwargs` say
// how it breaks; `marker`, on env.python_path, finds its host processes.
std::string signal_config(const std::string& dir, const std::string& marker,
                          const std::string& kwargs = "{}", const std::string& stop = "") {
  fs::create_directories(dir);
  const std::string path = dir + "/signal.yaml";
  std::ofstream(path) << "run:\n  name: signal\n  stop:\n"
                      << (stop.empty() ? "    mean_return: 1000\n    env_steps: 20000\n" : stop)
                      << "    wall_seconds: 60\n"
                      << "env:\n  id: python:test_envs:signal_env\n"
                      << "  python_path: [" << test_envs_dir << ", " << marker << "]\n"
                      << "  envs_per_agent: 16\n  kwargs: " << kwargs << "\n"
                      << "agents:\n  count: 2\nalgo:\n  gamma: 0.9\n  lr: 0.01\n  entropy_coef: 0.0\n"
                      << "model:\n  hidden: [16]\nlog:\n  progress: false\n";
  return path;
}

// The parent of process `pid` (0 when it is gone).
int parent_of(int pid) {
  const std::string stat = proc_file(pid, "stat");
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  char state = 0;
  int ppid = 0;
  std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid);
  return ppid;
}

// Waits until at least `n` hosts with `marker` run; their pids.
std::vector<int> wait_for_hosts(const std::string& marker, size_t n) {
  std::vector<int> hosts;
  wait_until([&] { return (hosts = host_processes(marker)).size() >= n; }, 30);
  return hosts;
}

// A learner serving `config` (no agents of its own) and one worker of two
// agents joined to it over TCP on this machine; their logs beside `dir`.
std::pair<std::unique_ptr<child_process>, std::unique_ptr<child_process>> start_cluster(
    const std::string& config, const std::string& dir, const std::string& token, const std::string& worker_name) {
  auto learner = std::make_unique<child_process>(
      std::vector<std::string>{TROUPE_BINARY, "serve", config, "--listen", "127.0.0.1:0", "--token", token,
                               "--run-dir", dir, "--set", "agents.count=0"},
      dir + ".learner.log");
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE_MESSAGE(!address.empty(), read_file(dir + ".learner.log"));
  auto worker = std::make_unique<child_process>(
      std::vector<std::string>{TROUPE_BINARY, "join", address, "--agents", "2", "--token", token, "--name",
                               worker_name, "--retry", "5"},
      dir + ".worker.log");
  return {std::move(learner), std::move(worker)};
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("python envs: troupe train solves the pure-Python CartPole, troupe eval scores it") {
  const std::string dir = fresh_dir("py_cartpole");
  const std::string marker = host_marker("e2e_cartpole");
  const auto r = run_troupe("train " + source + "/configs/cartpole_python.yaml --run-dir " + dir +
                            " --set env.python_path=[" + source + "/examples/python_env," + marker +
                            "] --set run.stop.wall_seconds=120 --set log.progress_seconds=1");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["solved"] == true);
  CHECK(s["env_steps"].get<long>() > 0);
  check_accounting(s);
  CHECK(hosts_left(marker).empty());
  const auto e = run_troupe("eval " + dir + " --episodes 20");
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(e.output, m, std::regex("\"return_mean\": ([0-9.]+)")));
  CHECK(std::stod(m[1]) >= 400.0);
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python envs: an environment that raises or dies restarts its agent; the run finishes") {
  struct fault {
    std::string how, log_says;
  };
  for (const fault f : {fault{"raise", "RuntimeError: raised on purpose by the test environment"},
                        fault{"exit", "exited with code 3"},
                        fault{"segfault", "killed by signal 11"}}) {
    CAPTURE(f.how);
    const std::string dir = fresh_dir("py_fault_" + f.how);
    const std::string marker = host_marker("e2e_fault_" + f.how);
    const std::string flag = dir + ".flag";
    fs::remove(flag);
    const std::string config = signal_config(
        dir + ".cfg", marker, "{fail: " + f.how + ", after: 300, flag_file: " + flag + "}");
    const auto r = run_troupe("train " + config + " --run-dir " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.output, f.log_says));
    if (f.how == "raise") CHECK(contains(r.output, "Traceback (most recent call last)"));
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["stop_reason"] == "env_steps");
    CHECK(s["agent_restarts"].get<int>() >= 1);
    check_accounting(s);
    CHECK(hosts_left(marker).empty());
  }
}

TEST_CASE("python envs: a host SIGKILLed from outside restarts its agent within a second") {
  const std::string dir = fresh_dir("py_fault_sigkill");
  const std::string marker = host_marker("e2e_sigkill");
  const std::string config = signal_config(dir + ".cfg", marker, "{}",
                                           "    mean_return: 1000\n    env_steps: 150000\n");
  child_process troupe({TROUPE_BINARY, "train", config, "--run-dir", dir}, dir + ".log");
  const auto hosts = wait_for_hosts(marker, 2);
  REQUIRE(hosts.size() >= 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(hosts[0], SIGKILL);
  REQUIRE(troupe.wait_exit(std::chrono::seconds(90)) == 0);
  const std::string log = read_file(dir + ".log");
  INFO(log);
  CHECK(contains(log, "killed by signal 9"));
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["agent_restarts"].get<int>() >= 1);
  check_accounting(s);
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python envs: what cannot be made stops troupe train with exit code 2 before training") {
  struct bad {
    std::string id, kwargs;
    std::vector<std::string> must_contain;
  };
  const std::vector<bad> cases = {
      {"python:no_such_module_here:make", "{}",
       {"cannot import module 'no_such_module_here'", "No module named 'no_such_module_here'"}},
      {"python:test_envs:no_such_callable", "{}", {"module 'test_envs'", "no attribute 'no_such_callable'"}},
      {"python:test_envs:text_in_observation", "{}", {"unsupported space at observation['name'][1]: Text(8)"}},
      {"gymnasium:CartPole-v1", "{}", {"No module named 'gymnasium'"}},
  };
  const std::string marker = host_marker("e2e_refused");
  for (const auto& c : cases) {
    CAPTURE(c.id);
    const std::string dir = fresh_dir("py_refused");
    const std::string config = signal_config(dir + ".cfg", marker);
    const auto r = run_troupe("train " + config + " --run-dir " + dir + " --set env.id=" + c.id);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "key 'env.id'"));
    CHECK(contains(r.output, c.id));
    for (const auto& part : c.must_contain) CHECK(contains(r.output, part));
    CHECK_FALSE(fs::exists(dir + "/summary.json"));  // nothing trained
  }
  // A malformed id is refused by the config loader, without starting Python.
  const auto malformed = run_troupe("train " + signal_config(fresh_dir("py_malformed"), marker) +
                                    " --set env.id=python:only_a_module");
  CHECK(malformed.exit_code == 2);
  CHECK(contains(malformed.output, "python:MODULE:CALLABLE"));
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python envs: no host outlives troupe stopped by SIGINT, SIGTERM or SIGKILL") {
  for (const int sig : {SIGINT, SIGTERM, SIGKILL}) {
    CAPTURE(sig);
    const std::string dir = fresh_dir("py_signal_" + std::to_string(sig));
    const std::string marker = host_marker("e2e_signal_" + std::to_string(sig));
    const std::string config = signal_config(dir + ".cfg", marker, "{}",
                                             "    mean_return: 1000\n    env_steps: 100000000\n");
    child_process troupe({TROUPE_BINARY, "train", config, "--run-dir", dir, "--set",
                          "env.processes_per_agent=2"},
                         dir + ".log");
    REQUIRE(wait_for_hosts(marker, 4).size() == 4);  // 2 agents x 2 processes
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    troupe.signal(sig);
    const int code = troupe.wait_exit(std::chrono::seconds(60));
    INFO(read_file(dir + ".log"));
    CHECK(code == (sig == SIGKILL ? 128 + SIGKILL : 0));
    CHECK(hosts_left(marker).empty());
  }
}

TEST_CASE("python envs: rollout, envs --describe and bench envs take a Python id with --set env.*") {
  const std::string marker = host_marker("e2e_commands");
  const std::string paths = "--set env.python_path=[" + test_envs_dir + "/fake_gymnasium," +
                            test_envs_dir + "," + marker + "]";
  // gymnasium:ENV_ID through a stand-in gymnasium package: kwargs reach make().
  const auto rollout = run_troupe("rollout gymnasium:Signal-v0 --episodes 3 " + paths +
                                  " --set 'env.kwargs={length: 7}'");
  INFO(rollout.output);
  REQUIRE(rollout.exit_code == 0);
  CHECK(contains(rollout.output, "\"length_mean\": 7.0"));
  const auto describe = run_troupe("envs --describe python:test_envs:echo " + paths);
  INFO(describe.output);
  REQUIRE(describe.exit_code == 0);
  CHECK(contains(describe.output, "observation Box(4)  action Box(2x2)"));
  const std::string json = fresh_dir("py_bench.json");
  const auto bench = run_troupe("bench envs --steps 3200 --repeats 1 --envs-per-process 32 --env "
                                "python:test_envs:signal_env " + paths + " --json " + json);
  INFO(bench.output);
  REQUIRE(bench.exit_code == 0);
  const auto row = read_json(json)["results"][0];
  CHECK(row["envs"] == 32);
  CHECK(row["ns_per_step"].get<double>() > 0);
  CHECK(row["bridge_ns_per_step"].get<double>() > 0);
  CHECK(row["bridge_cost_ns_per_step"].get<double>() ==
        doctest::Approx(row["bridge_ns_per_step"].get<double>() - row["ns_per_step"].get<double>()));
  const auto missing = run_troupe("rollout gymnasium:Signal-v0 --episodes 1");
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.output, "No module named 'gymnasium'"));
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python envs: cluster workers host their own Python processes") {
  const std::string dir = fresh_dir("py_cluster");
  const std::string marker = host_marker("e2e_cluster");
  const std::string config = signal_config(dir + ".cfg", marker, "{}",
                                           "    mean_return: 9.5\n");
  auto [learner, worker] = start_cluster(config, dir, "python-cluster-token", "pyworker");
  // The worker's agents start their hosts: children of the worker process.
  const auto hosts = wait_for_hosts(marker, 2);
  int of_worker = 0;
  for (int pid : hosts) of_worker += parent_of(pid) == worker->pid();
  CHECK(of_worker >= 2);
  INFO(read_file(dir + ".learner.log"));
  REQUIRE(learner->wait_exit(std::chrono::seconds(90)) == 0);
  CHECK(worker->wait_exit(std::chrono::seconds(20)) == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["solved"] == true);
  CHECK(s["cluster"]["workers_joined"] == 1);
  check_accounting(s);
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python envs: masked MultiDiscrete and hybrid actions train on a cluster worker") {
  // tests/bridges/python/test_envs.py's Routing and Aim (each raises on a
  // masked choice, Aim on an aim out of bounds too): the worker's requests
  // and rollouts carry one index per component (then Aim's Box value) and
  // the components' masks, which the learner's gateway checks per component.
  // Targets well above a random legal policy (4.6 and 1.9) and below the
  // local runs' (9.0 and 8.5, tests/e2e/action_mask_test.cpp): what is
  // checked here is that the worker's messages carry what trains, and every
  // step of a worker crosses the loopback to the learner's model-owner.
  for (const auto& [name, target] : {std::pair<std::string, double>{"routing", 8.0}, {"aim", 7.0}}) {
    CAPTURE(name);
    const std::string dir = fresh_dir("py_cluster_" + name);
    const std::string marker = host_marker("e2e_cluster_" + name);
    fs::create_directories(dir + ".cfg");
    const std::string config = dir + ".cfg/" + name + ".yaml";
    std::ofstream(config) << masked_test_env_config(name, target, 3000000, test_envs_dir + ", " + source +
                                                                               "/examples/python_env, " + marker);
    auto [learner, worker] = start_cluster(config, dir, name + "-cluster-token", name + "-worker");
    INFO(read_file(dir + ".learner.log"));
    INFO(read_file(dir + ".worker.log"));
    REQUIRE(learner->wait_exit(std::chrono::seconds(120)) == 0);
    CHECK(worker->wait_exit(std::chrono::seconds(20)) == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["solved"] == true);
    CHECK(s["agent_restarts"] == 0);
    CHECK(s["cluster"]["workers_joined"] == 1);
    CHECK(s["cluster"]["messages_rejected"] == 0);  // every request and rollout passed the gateway's checks
    CHECK(s["cluster"]["rollouts_relayed"].get<long>() > 0);
    check_accounting(s);
    CHECK(hosts_left(marker).empty());
  }
}

TEST_CASE("python envs: a worker that cannot make the environment exits with code 2") {
  const std::string dir = fresh_dir("py_cluster_refused");
  const std::string marker = host_marker("e2e_cluster_refused");
  const std::string config = signal_config(dir + ".cfg", marker);
  child_process learner({TROUPE_BINARY, "serve", config, "--listen", "127.0.0.1:0", "--token", "t",
                         "--run-dir", dir, "--set", "agents.count=0"},
                        dir + ".learner.log");
  const std::string address = learner_address(dir + ".learner.log");
  REQUIRE_MESSAGE(!address.empty(), read_file(dir + ".learner.log"));
  // The worker's environment lacks what signal_env needs (test_envs.py).
  child_process worker({"/usr/bin/env", "TROUPE_TEST_NO_SIGNAL=1", TROUPE_BINARY, "join", address,
                        "--token", "t", "--retry", "5"},
                       dir + ".worker.log");
  CHECK(worker.wait_exit(std::chrono::seconds(30)) == 2);
  const std::string log = read_file(dir + ".worker.log");
  INFO(log);
  CHECK(contains(log, "key 'env.id'"));
  CHECK(contains(log, "this machine cannot make the Signal environment"));
  learner.signal(SIGINT);
  CHECK(learner.wait_exit(std::chrono::seconds(30)) == 0);
  CHECK(hosts_left(marker).empty());
}
}
