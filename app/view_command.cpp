// troupe view ENV_ID: watch an environment play with a fixed policy in a live
// window (no training, no model).
// troupe view --connect HOST:PORT: watch a training run that publishes its
// frames (`troupe train --view-port PORT`) from this process.
// Both use the viewer library's window, so the panel, the keys, screenshots
// and recordings are those of `train --view` and `play`.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <tuple>

#include <CLI/CLI.hpp>

#include "actors/frames/frame_stream.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/net/network_setup.hpp"
#include "actors/errors.hpp"
#include "app/commands.hpp"
#include "app/env_flags.hpp"
#include "run/config_loader.hpp"
#include "app/local_playback.hpp"
#include "app/stream_window.hpp"
#include "app/teardown_watchdog.hpp"
#include "agents/policy_overlay.hpp"
#include "algo/action_mask.hpp"
#include "envs/policy_rollout.hpp"

namespace troupe::app {

namespace {

struct view_options {
  std::string env_id;
  std::vector<std::string> env_overrides;
  std::string connect;  // HOST:PORT
  std::string token;    // the stream's token (else TROUPE_CLUSTER_TOKEN)
  run::tls_files tls;
  std::string policy = "random";
  std::uint64_t seed = 0;
  long episodes = 0;  // 0: until quit
  double fps = 30.0;  // 0: as fast as possible
  window_flags window;
};

// One of envs/policy_rollout's fixed policies, shown in the panel as the
// action probabilities of a discrete policy, or a continuous action's values.
class fixed_playback_policy final : public playback_policy {
 public:
  fixed_playback_policy(const std::string& kind, const envs::env& env, std::uint64_t seed)
      : env_(env),
        random_(kind == "random"),
        seed_(seed),
        action_(env.spec().action),
        labels_(env.spec().action_labels),
        actions_(envs::parse_fixed_policy(kind), action_, seed ^ 0x9e3779b97f4a7c15ULL) {}

  std::uint64_t start_episode(long episode) override { return seed_ + std::uint64_t(episode); }

  void act(const float*, float* a, viewer::overlay_info& info) override {
    const float* chosen = actions_.next_for(env_);
    std::copy(chosen, chosen + action_.flat_size(), a);
    if (action_.type != envs::space::kind::box) {
      // As logits: random is uniform over the legal actions (all without a
      // mask), noop certain of its one action; a hybrid action's Box part
      // as means equal to the values taken.
      const std::vector<int> heads = action_.categories();
      std::vector<std::uint8_t> legal(size_t(action_.choice_count()), 1);
      if (env_.spec().has_action_mask) env_.action_mask(legal.data());
      std::vector<float> logits(legal.size(), random_ ? 0.f : algo::masked_logit);
      for (size_t j = 0, offset = 0; !random_ && j < heads.size(); offset += size_t(heads[j++]))
        logits[offset + size_t(a[j])] = 0.f;
      logits.insert(logits.end(), a + heads.size(), a + action_.flat_size());
      agents::show_policy(info, action_, logits.data(), a, labels_,
                          env_.spec().has_action_mask ? legal.data() : nullptr);
      return;
    }
    info.action_values.assign(a, a + action_.flat_size());
  }

 private:
  const envs::env& env_;
  bool random_;
  std::uint64_t seed_;
  envs::space action_;
  std::vector<std::string> labels_;
  envs::fixed_policy_actions actions_;
};

void view_env(const view_options& opts) {
  const auto env = make_command_env(run::load_env_options(opts.env_id, opts.env_overrides));
  fixed_playback_policy policy(opts.policy, *env, opts.seed);
  playback_options playback;
  playback.who = "troupe view";
  playback.title = "troupe view - " + env->spec().id;
  playback.episodes = opts.episodes;
  playback.fps = opts.fps;
  playback.window = opts.window;
  play_in_window(*env, policy, playback);
}

int view_stream(const view_options& opts) {
  std::string host;
  std::uint16_t port = 0;
  try {
    std::tie(host, port) = actors::parse_host_port(opts.connect, "view: --connect");
  } catch (const std::invalid_argument& e) {
    throw config_error(e.what());
  }
  if (port == 0) throw config_error("view: --connect needs the port the run printed, not 0");
  std::string token = opts.token;
  if (token.empty())
    if (const char* env = std::getenv("TROUPE_CLUSTER_TOKEN")) token = env;
  if (token.empty())
    throw config_error("view: no token: give --token (the run printed it) or set TROUPE_CLUSTER_TOKEN");
  if (const std::string problem = opts.tls.problem(); !problem.empty())
    throw config_error("view: TLS " + problem + ": give --tls-cert, --tls-key and --tls-ca");
  teardown_watchdog watchdog;  // outlives the system below
  caf::actor_system_config caf_config;
  actors::configure_actor_system(caf_config);
  try {
    actors::configure_network(caf_config, opts.tls);
  } catch (const std::invalid_argument& e) {
    throw config_error(std::string("view: ") + e.what());
  }
  caf::actor_system system{caf_config};
  auto hub = actors::connect_frame_stream(system, host, port, token, opts.tls);
  if (!hub && actors::code_of(hub.error()) == actors::errc::refused) {
    std::cerr << "troupe view: the run at " << opts.connect
              << " refused this viewer: " << actors::detail_of(hub.error()) << std::endl;
    watchdog.arm(actors::exit_refused);
    return actors::exit_refused;
  }
  if (!hub)
    throw std::runtime_error("view: cannot connect to a frame stream at " + opts.connect + ": " +
                             system.render(hub.error()) +
                             " (is `troupe train --view-port " + std::to_string(port) +
                             "` running there" + (opts.tls.enabled() ? ", with TLS?" : "?") + ")");
  std::cout << "troupe view: connected to " << opts.connect << std::endl;
  stream_view_options view;
  view.who = "troupe view";
  view.title = "troupe view - " + opts.connect;
  view.fps = opts.fps > 0 ? opts.fps : 1000.0;
  view.window = opts.window;
  watch_frame_stream(system, *hub, view);
  watchdog.arm(0);  // CAF 0.17 may hang tearing down a connection (see the watchdog)
  return 0;
}

int view(const view_options& opts) {
  if (opts.episodes < 0 || opts.fps < 0)
    throw config_error("view: --episodes and --fps must not be negative");
  if (opts.env_id.empty() == opts.connect.empty())
    throw config_error("view: give either an ENV_ID or --connect HOST:PORT");
  if (!opts.connect.empty()) return view_stream(opts);
  view_env(opts);
  return 0;
}

}  // namespace

void add_view_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<view_options>();
  auto* cmd = cli.add_subcommand(
      "view",
      "watch an environment play with a fixed policy (no training), or a training run that "
      "publishes its frames (--connect)");
  cmd->add_option("ENV_ID", opts->env_id, "environment id (see `troupe envs`)");
  cmd->add_option("--connect", opts->connect,
                  "HOST:PORT of a run started with `troupe train --view-port PORT`");
  cmd->add_option("--token", opts->token,
                  "--connect: the stream's token (else TROUPE_CLUSTER_TOKEN); a wrong one exits 3");
  cmd->add_option("--tls-cert", opts->tls.certificate, "--connect over TLS: PEM certificate of this viewer");
  cmd->add_option("--tls-key", opts->tls.key, "--connect over TLS: PEM key of --tls-cert");
  cmd->add_option("--tls-ca", opts->tls.ca, "--connect over TLS: PEM CA that signed the run's certificate");
  cmd->add_option("--policy", opts->policy, "fixed policy: random or noop")
      ->check(CLI::IsMember({"random", "noop"}))
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed, "seed of the first episode (episode k uses seed + k)")
      ->capture_default_str();
  cmd->add_option("--episodes", opts->episodes, "stop after N episodes (0: until quit)");
  cmd->add_option("--fps", opts->fps, "frames per second at speed x1 (0: as fast as possible)")
      ->capture_default_str();
  add_window_flags(*cmd, opts->window);
  add_env_set_option(*cmd, opts->env_overrides);
  cmd->footer(
      "Keys: space pause/resume, . or right arrow single step, +/- faster/slower,\n"
      "n or tab next agent, q or Esc quit. Headless: xvfb-run -a troupe view ...");
  cmd->callback([opts, &exit_code] { exit_code = view(*opts); });
}

}  // namespace troupe::app
