// troupe train CONFIG [--set key=value]... [--run-dir DIR] [--view] [--view-port PORT]
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include <CLI/CLI.hpp>

#include "actors/net/network_setup.hpp"
#include "actors/actor_system_setup.hpp"
#include "algo/hyperparameters.hpp"
#include "actors/net/token.hpp"
#include "run/config_loader.hpp"
#include "actors/coordinator.hpp"
#include "actors/frames/frame_stream.hpp"
#include "run/run_directory.hpp"
#include "app/commands.hpp"
#include "app/interrupts.hpp"
#include "app/plot_hook.hpp"
#include "app/stream_window.hpp"
#include "app/summary.hpp"
#include "app/teardown_watchdog.hpp"
#include "app/training.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::app {

namespace {

// troupe serve: the token workers must present, from the first place that
// has one; otherwise a fresh random one, printed for the workers.
std::string cluster_token(const train_options& opts, const run::run_config& config) {
  if (!opts.token.empty()) return opts.token;
  if (!config.cluster.token.empty()) return config.cluster.token;
  if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN"); env && *env) return env;
  const std::string token = actors::random_token();
  std::cout << "troupe: no cluster token given; workers join with --token " << token << std::endl;
  return token;
}

// The frame stream's token: --view-token, else the run's cluster token
// (troupe serve's, or cluster.token, or TROUPE_CLUSTER_TOKEN); otherwise a
// fresh random one, printed for the viewers.
std::string view_token(const train_options& opts, const std::string& cluster_token,
                       const std::string& config_token, bool& generated) {
  generated = false;
  if (!opts.view_token.empty()) return opts.view_token;
  if (!cluster_token.empty()) return cluster_token;
  if (!config_token.empty()) return config_token;
  if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN"); env && *env) return env;
  generated = true;
  return actors::random_token();
}

// Trains on a second thread while this one shows the agents' frames: SDL
// wants its window on the main thread. Closing the window (or q, or --frames
// being reached) only closes the view; the run goes on to its own end, and
// SIGINT still stops it gracefully.
actors::run_outcome train_in_view(caf::actor_system& system, const actors::run_request& request,
                                  const train_options& opts, const std::atomic<bool>& interrupted) {
  std::atomic<bool> finished{false};
  actors::run_outcome outcome;
  std::exception_ptr failure;
  std::thread trainer([&] {
    try {
      outcome = actors::coordinate(system, request, interrupted);
    } catch (...) {
      failure = std::current_exception();
    }
    finished = true;
  });
  const std::string who = opts.listen.empty() ? "troupe train" : "troupe serve";
  try {
    stream_view_options view;
    view.who = who;
    view.title = who + " - " + request.config.env.id.text();
    view.fps = opts.view_fps;
    view.window = opts.window;
    view.stop = [&] { return finished.load(); };
    watch_frame_stream(system, request.frame_hub, view);
    if (!finished)
      std::cout << who << ": the viewer is closed; training goes on (Ctrl-C stops it)"
                << std::endl;
  } catch (const std::exception& e) {
    std::cerr << who << ": the viewer failed (" << e.what()
              << "); training goes on without it" << std::endl;
  }
  trainer.join();
  if (failure) std::rethrow_exception(failure);
  return outcome;
}

}  // namespace

namespace {

// What the command line and the config make of a run, before anything runs.
struct prepared_run {
  actors::run_request request;
  run::run_directory dir;
  std::string config_path;   // the file the config was read from
  std::string config_token;  // cluster.token, for the frame stream (never written to disk)
};

// Reads the config (a fresh run's, or the resumed run's own), checks what
// only the command knows (local agents, troupe serve's address), and writes
// the resolved config into the run directory.
prepared_run prepare(const train_options& opts) {
  const window_flags& w = opts.window;
  if (!opts.view && (w.frames > 0 || !w.screenshot.empty() || !w.record_dir.empty()))
    throw config_error("--frames, --screenshot and --record are for the window: add --view");
  prepared_run p;
  actors::run_request& request = p.request;
  const bool resuming = !opts.resume_dir.empty();
  if (resuming) {
    if (!opts.config_path.empty())
      throw config_error("give either a CONFIG or --resume RUN_DIR, not both");
    p.dir.root = opts.resume_dir;
    p.config_path = p.dir.config_file();
  } else {
    if (opts.config_path.empty()) throw config_error("give a CONFIG file (or --resume RUN_DIR)");
    p.config_path = opts.config_path;
  }
  request.config = run::load_config(p.config_path, opts.overrides);
  if (resuming && request.config.policies.empty() && !request.config.pbt.enabled())
    request.resume_from = p.dir.resume_point();
  if (!resuming)
    p.dir = opts.run_dir.empty() ? run::run_directory::fresh(request.config.run.name)
                                 : run::run_directory{opts.run_dir};
  request.run_dir = p.dir.root;
  const run::run_config& config = request.config;
  const bool serving = !opts.listen.empty();
  if (!serving && config.agents.count == 0)
    throw config_error("agents.count is 0: only troupe serve runs without local agents");
  if (serving && config.run.deterministic)
    throw config_error(p.config_path + ": key 'run.deterministic': workers' rollouts arrive in the network's order, "
                       "not in rounds: a run that serves workers cannot be deterministic (leave the key off)");
  if (serving) {
    try {
      std::tie(request.cluster.host, request.cluster.port) =
          actors::parse_host_port(opts.listen, "--listen");
    } catch (const std::invalid_argument& e) {
      throw config_error(e.what());
    }
    request.cluster.token = cluster_token(opts, config);
    request.cluster.tls = config.cluster.tls;
  }
  p.config_token = config.cluster.token;
  request.config.cluster.token.clear();  // never written to the run directory
  request.env = run::env_spec_for(config, p.config_path);
  request.config_yaml = run::to_yaml(config);
  request.policies = actors::plan_requests(request, resuming);
  for (const actors::policy_request& policy : request.policies) {
    const std::string problem = run::unfillable_batch(policy.config);
    if (!serving && !problem.empty())
      throw config_error(p.config_path + ": " + (policy.name.empty() ? "" : policy.name + ": ") + problem);
  }
  p.dir.create();
  p.dir.write(p.dir.config_file(), request.config_yaml);
  for (const auto& policy : request.policies)
    if (!policy.name.empty()) {
      run::run_directory{policy.run_dir}.create();
      p.dir.write(run::run_directory{policy.run_dir}.config_file(), policy.config_yaml);
    }
  return p;
}

void print_header(const prepared_run& p) {
  const run::run_config& config = p.request.config;
  std::string devices;
  for (const auto& d : config.devices) devices += (devices.empty() ? "" : ", ") + d;
  const bool team = config.env.versus.seat == "all" ||
                    std::any_of(p.request.policies.begin(), p.request.policies.end(),
                                [](const auto& policy) { return policy.config.env.versus.seat == "all"; });
  std::cout << "troupe: " << config.env.id << ", " << config.agents.count << (config.agents.count == 1 ? " agent x " : " agents x ")
            << config.env.envs_per_agent << (team ? " games, a team's agents in each (env.seat all)" : " envs")
            << ", devices [" << devices << "]"
            << (config.devices.size() > 1
                    ? " (replicas.max_lag " + std::to_string(config.replicas.max_lag) + ")"
                    : std::string())
            << "\n"
            << "troupe: " << model::describe_compute_runtime() << "\n"
            << "troupe: run directory " << p.dir.root << std::endl;
  for (const auto& policy : p.request.policies) {
    if (config.pbt.enabled()) {
      std::cout << "troupe: " << policy.name << ":";
      for (const auto& [key, range] : config.pbt.hyperparams)
        std::cout << " " << key << " " << *algo::hyperparameter(policy.config.algo, key);
      std::cout << " (first draw), " << policy.run_dir << std::endl;
    } else if (!policy.name.empty()) {
      const auto& versus = policy.config.env.versus;
      std::string team;
      for (const auto& agent : versus.team) team += (team.empty() ? "" : ", ") + agent;
      const std::string side = team.empty()                ? "seat " + versus.seat
                               : versus.seat == "alternate" ? "a seat of " + team + " drawn per episode"
                                                            : "team " + team;
      const int count = policy.config.agents.count;
      std::cout << "troupe: policy " << policy.name << ": " << count << (count == 1 ? " agent, " : " agents, ") << side
                << ", " << policy.run_dir << std::endl;
    }
    if (!policy.resume_from.empty()) std::cout << "troupe: resuming from " << policy.resume_from << std::endl;
  }
}

// --view-port: the frames published for `troupe view --connect`.
struct published_stream {
  actors::frame_stream_control gate;
  caf::actor door;
};

constexpr auto stream_stop_timeout = std::chrono::seconds(10);

published_stream publish_stream(caf::actor_system& system, const prepared_run& p,
                                const train_options& opts) {
  const run::run_config& config = p.request.config;
  bool generated = false;
  actors::frame_stream_options stream;
  stream.port = static_cast<std::uint16_t>(opts.view_port);
  stream.bind_address = opts.view_bind;
  stream.token = view_token(opts, p.request.cluster.token, p.config_token, generated);
  stream.tls = config.cluster.tls;
  stream.limits = config.cluster.limits;
  auto published = actors::publish_frame_stream(system, p.request.frame_hub, stream);
  if (!published)
    throw config_error("--view-port " + std::to_string(opts.view_port) + ": cannot publish on " +
                       opts.view_bind + ": " + system.render(published.error()));
  const std::uint16_t port = published->port;
  std::cout << "troupe: frame stream on " << opts.view_bind << ":" << port
            << (stream.tls.enabled() ? " (TLS)" : "") << " (watch it with: troupe view --connect "
            << opts.view_bind << ":" << port << " --token "
            << (generated ? stream.token : std::string("<the view token>")) << ")" << std::endl;
  return {published->gate, published->door};
}

// Closes the frame stream, with what its gate and door saw in `outcome`.
void close_stream(caf::actor_system& system, const published_stream& stream,
                  actors::run_outcome& outcome) {
  caf::scoped_actor self{system};
  self->request(stream.gate, stream_stop_timeout, actors::stop_atom_v)
      .receive(
          [&](const actors::stream_final& f) {
            outcome.stream = f;
            outcome.streamed = true;
          },
          [](caf::error&) {});
  self->request(stream.door, stream_stop_timeout, actors::stop_atom_v)
      .receive([&](const actors::door_counts& d) { outcome.stream_door = d; }, [](caf::error&) {});
}

// Writes summary.json and says how the run ended; returns the exit code.
int report(const prepared_run& p, const actors::run_outcome& outcome) {
  const run::run_config& config = p.request.config;
  if (!outcome.checkpoint_failure.empty()) {
    const std::string kept = p.dir.checkpoints().newest();
    std::cerr << "troupe: error: a checkpoint could not be written: " << outcome.checkpoint_failure
              << "; the run stopped. "
              << (kept.empty() ? std::string("No checkpoint was written before it.")
                               : "The last good checkpoint is kept: " + kept)
              << std::endl;
  }
  try {
    for (const auto& policy : outcome.policies)
      p.dir.write(run::run_directory{policy.run_dir}.summary_file(),
                  summary_json(policy, config.run.stop.mean_return));
    p.dir.write(p.dir.summary_file(), summary_json(outcome, config.run.stop.mean_return));
  } catch (const std::exception& e) {
    std::cerr << "troupe: error: " << e.what() << std::endl;
    return 1;
  }
  const auto& t = outcome.totals;
  std::cout << "troupe: stopped (" << run::name_of(outcome.stop) << ") after "
            << outcome.wall_seconds << " s, " << t.env_steps << " env steps ("
            << long(outcome.samples_collected / outcome.wall_seconds) << "/s), " << t.episodes
            << " episodes, mean return " << t.final_mean_return;
  if (t.solved)
    std::cout << "; solved in " << t.seconds_to_target << " s / " << t.env_steps_to_target
              << " env steps";
  std::cout << "\ntroupe: summary in " << p.dir.summary_file();
  if (!outcome.last_checkpoint.empty() && outcome.policies.empty())
    std::cout << "; checkpoint " << outcome.last_checkpoint;
  std::cout << std::endl;
  for (const auto& policy : outcome.policies)
    std::cout << "troupe: policy " << policy.policy << ": " << policy.totals.env_steps << " env steps, "
              << policy.totals.episodes << " episodes, mean return " << policy.totals.final_mean_return
              << ", " << policy.learner.updates << " updates; in " << policy.run_dir << std::endl;
  if (config.log.plot) {
    if (outcome.policies.empty()) plot_run(p.dir.root);
    for (const auto& policy : outcome.policies) plot_run(policy.run_dir);
  }
  if (!outcome.pbt_failure.empty()) std::cerr << "troupe: error: " << outcome.pbt_failure << "; the run stopped.\n";
  if (outcome.stop == run::stop_reason::agent_failures)
    std::cerr << "troupe: error: agents failed " << outcome.agent_restarts
              << " times, more than agents.max_restarts allows; the last failure: "
              << outcome.last_failure << "\n";
  return run::is_failure(outcome.stop) ? 1 : 0;
}

}  // namespace

int run_training(const train_options& opts) {
  prepared_run p = prepare(opts);
  model::tune_allocator();
  model::set_compute_threads(1);
  print_header(p);

  std::atomic<bool>& interrupted = catch_interrupts();
  teardown_watchdog watchdog;  // outlives the system below
  caf::actor_system_config caf_config;
  actors::configure_actor_system(caf_config);
  const bool serving = !opts.listen.empty(), publishing = opts.view_port >= 0;
  // The cluster's TLS files protect the frame stream too.
  if (serving || publishing) actors::configure_network(caf_config, p.request.config.cluster.tls);
  caf::actor_system system{caf_config};
  if (opts.view || publishing) p.request.frame_hub = actors::spawn_frame_hub(system);
  std::optional<published_stream> stream;
  if (publishing) stream = publish_stream(system, p, opts);

  actors::run_outcome outcome = opts.view ? train_in_view(system, p.request, opts, interrupted)
                                           : actors::coordinate(system, p.request, interrupted);
  if (stream) close_stream(system, *stream, outcome);
  if (p.request.frame_hub) caf::anon_send_exit(p.request.frame_hub, caf::exit_reason::user_shutdown);
  const int exit_code = report(p, outcome);
  watchdog.arm(exit_code);
  return exit_code;
}

void add_watch_options(CLI::App& cmd, train_options& opts) {
  cmd.add_flag("--view", opts.view,
               "watch agent 0's first environment live in a window (n: next agent); closing "
               "the window leaves training running");
  cmd.add_option("--view-fps", opts.view_fps, "frames per second the window asks for at speed x1")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_window_flags(cmd, opts.window);
  cmd.add_option("--view-port", opts.view_port,
                 "publish the frames on this TCP port for `troupe view --connect` (0: any free "
                 "port, printed)")
      ->check(CLI::Range(0, 65535));
  cmd.add_option("--view-bind", opts.view_bind,
                 "address the frame stream listens on (0.0.0.0: every interface)")
      ->capture_default_str();
  cmd.add_option("--view-token", opts.view_token,
                 "secret viewers must present (else the cluster token: --token, cluster.token "
                 "or TROUPE_CLUSTER_TOKEN; else a random one is printed)");
}

void add_train_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<train_options>();
  auto* cmd = cli.add_subcommand("train", "train an agent from a YAML config");
  cmd->add_option("config", opts->config_path, "YAML run config");
  cmd->add_option("--resume", opts->resume_dir,
                  "continue the run in RUN_DIR from its newest checkpoint");
  cmd->add_option("--set", opts->overrides, "override a key: dotted.key=value (value is YAML)");
  cmd->add_option("--run-dir", opts->run_dir, "run directory (default runs/<name>-<timestamp>)");
  add_watch_options(*cmd, *opts);
  cmd->callback([opts, &exit_code] { exit_code = run_training(*opts); });
}

}  // namespace troupe::app
