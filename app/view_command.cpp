// troupe view ENV_ID: watch an environment play with a fixed policy in a live
// window (no training, no model). The window is the viewer library's, so the
// same panel, controls, screenshots and recordings serve `train --view`.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/config_loader.hpp"
#include "envs/minatar/minatar_env.hpp"
#include "envs/policy_rollout.hpp"
#include "envs/registry.hpp"
#include "envs/render.hpp"
#include "viewer/viewer_window.hpp"

namespace troupe::app {

namespace {

using clock_type = std::chrono::steady_clock;

std::atomic<bool> view_interrupted{false};
extern "C" void on_view_signal(int) { view_interrupted = true; }

struct view_options {
  std::string env_id;
  std::string policy = "random";
  std::uint64_t seed = 0;
  long episodes = 0;  // 0: until quit
  long frames = 0;    // 0: until quit
  std::string screenshot;
  std::string record_dir;
  double fps = 30.0;  // 0: as fast as the window draws
};

// Labels for the panel's action bars, where we know them.
std::vector<std::string> action_names(const envs::env& env) {
  if (const auto* m = dynamic_cast<const envs::minatar_env*>(&env)) {
    static const char* names[] = {"noop", "left", "up", "right", "down", "fire"};
    std::vector<std::string> out;
    for (int a : m->action_set()) out.push_back(names[a]);
    return out;
  }
  const std::string& id = env.spec().id;
  if (id == "CartPole-v1") return {"left", "right"};
  if (id == "MountainCar-v0") return {"left", "none", "right"};
  if (id == "Acrobot-v1") return {"-1", "0", "+1"};
  return {};
}

// Acts with one of envs/policy_rollout's fixed policies and shows what it
// chose in the overlay: the action probabilities of a discrete policy, or a
// continuous action's values.
class overlay_policy {
 public:
  overlay_policy(const std::string& kind, const envs::space& action, std::uint64_t seed)
      : random_(kind == "random"),
        action_(action),
        actions_(envs::parse_fixed_policy(kind), action, seed ^ 0x9e3779b97f4a7c15ULL) {}

  void act(std::vector<float>& a, viewer::overlay_info& info) {
    const float* chosen = actions_.next();
    std::copy(chosen, chosen + a.size(), a.begin());
    if (action_.type == envs::space::kind::discrete) {
      const int n = action_.n;
      info.action_probabilities.assign(size_t(n), random_ ? 1.f / n : 0.f);
      if (!random_) info.action_probabilities[0] = 1.f;
      info.chosen_action = static_cast<int>(a[0]);
      return;
    }
    info.action_values.assign(a.begin(), a.end());
  }

 private:
  bool random_;
  envs::space action_;
  envs::fixed_policy_actions actions_;
};

int view(const view_options& opts) {
  if (opts.frames < 0 || opts.episodes < 0 || opts.fps < 0)
    throw config_error("view: --frames, --episodes and --fps must not be negative");
  std::unique_ptr<envs::env> env;
  try {
    env = envs::make_env(opts.env_id);
  } catch (const std::invalid_argument& e) {
    throw config_error(std::string("view: ") + e.what());
  }
  const auto* drawable = dynamic_cast<const envs::renderable*>(env.get());
  if (drawable == nullptr) throw config_error("view: " + opts.env_id + " cannot render itself");
  const envs::env_spec& spec = env->spec();

  viewer::viewer_options window_options;
  window_options.title = "troupe view - " + spec.id;
  window_options.record_dir = opts.record_dir;
  viewer::viewer_window window(window_options);
  if (!window.on_screen())
    std::cerr << "troupe view: no display found (SDL video driver '" << window.video_driver()
              << "'): drawing offscreen, so only --screenshot and --record show anything. "
                 "Set DISPLAY, or run under `xvfb-run -a`.\n";

  std::vector<float> observation(size_t(spec.observation.flat_size()));
  std::vector<float> action(size_t(spec.action.flat_size()), 0.f);
  overlay_policy policy(opts.policy, spec.action, opts.seed);
  const std::vector<std::string> names = action_names(*env);

  viewer::overlay_info info;
  info.title = spec.id;
  info.action_names = names;
  long episodes_done = 0, env_steps = 0, steps_at_rate = 0;
  bool need_reset = false;
  const auto start_episode = [&] {
    env->reset(opts.seed + std::uint64_t(episodes_done), observation.data());
    info.episode = episodes_done + 1;
    info.episode_return = 0.0;
    info.step = 0;
    info.action_probabilities.clear();
    info.action_values.clear();
    info.chosen_action = -1;
  };
  const auto show = [&] {
    envs::rgb_frame frame;
    drawable->render(frame);
    window.show(std::move(frame), info, drawable->pixel_art());
  };

  std::signal(SIGINT, on_view_signal);
  std::signal(SIGTERM, on_view_signal);
  start_episode();
  show();
  auto next_due = clock_type::now();
  auto rate_since = next_due;
  while (window.poll_events() && !view_interrupted) {
    if (opts.frames > 0 && window.frames_shown() >= opts.frames) break;
    if (opts.episodes > 0 && episodes_done >= opts.episodes) break;  // its last frame is shown
    const auto now = clock_type::now();
    if (!window.wants_frame() || now < next_due) {
      const auto wait = window.wants_frame() ? next_due - now : clock_type::duration::max();
      std::this_thread::sleep_for(std::min<clock_type::duration>(wait, std::chrono::milliseconds(10)));
      continue;
    }
    if (need_reset) {
      start_episode();
      need_reset = false;
    } else {
      policy.act(action, info);
      const envs::step_result r = env->step(action.data(), observation.data());
      ++env_steps;
      info.episode_return += r.reward;
      ++info.step;
      if (r.terminated || r.truncated) {
        ++episodes_done;
        need_reset = true;
        std::cout << "troupe view: episode " << episodes_done << " return " << info.episode_return
                  << " in " << info.step << " steps" << (r.truncated ? " (time limit)" : "")
                  << std::endl;
      }
    }
    const double since = std::chrono::duration<double>(now - rate_since).count();
    if (since >= 0.25) {
      info.steps_per_second = (env_steps - steps_at_rate) / since;
      steps_at_rate = env_steps;
      rate_since = now;
    }
    show();
    if (opts.fps > 0) {
      next_due += std::chrono::duration_cast<clock_type::duration>(
          std::chrono::duration<double>(1.0 / (opts.fps * window.speed())));
      if (next_due < now) next_due = now;  // after a pause or a slow frame: no burst
    }
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  if (!opts.screenshot.empty()) {
    window.save_screenshot(opts.screenshot);
    std::cout << "troupe view: screenshot " << opts.screenshot << std::endl;
  }
  std::cout << "troupe view: " << window.frames_shown() << " frames, " << env_steps
            << " env steps, " << episodes_done << " episodes finished";
  if (!opts.record_dir.empty()) std::cout << "; frames in " << opts.record_dir;
  std::cout << std::endl;
  return 0;
}

}  // namespace

void add_view_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<view_options>();
  auto* cmd = cli.add_subcommand(
      "view", "watch an environment play with a fixed policy in a live window (no training)");
  cmd->add_option("ENV_ID", opts->env_id, "environment id (see `troupe envs`)")->required();
  cmd->add_option("--policy", opts->policy, "fixed policy: random or noop")
      ->check(CLI::IsMember({"random", "noop"}))
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed, "seed of the first episode (episode k uses seed + k)")
      ->capture_default_str();
  cmd->add_option("--episodes", opts->episodes, "stop after N episodes (0: until quit)");
  cmd->add_option("--frames", opts->frames, "stop after N frames shown (0: until quit)");
  cmd->add_option("--screenshot", opts->screenshot,
                  "on exit, save the last frame shown, panel included, as this PNG");
  cmd->add_option("--record", opts->record_dir,
                  "write every frame shown as DIR/frame_000000.png, ...");
  cmd->add_option("--fps", opts->fps, "frames per second at speed x1 (0: as fast as possible)")
      ->capture_default_str();
  cmd->footer(
      "Keys: space pause/resume, . or right arrow single step, +/- faster/slower,\n"
      "n or tab next agent, q or Esc quit. Headless: xvfb-run -a troupe view ...");
  cmd->callback([opts, &exit_code] { exit_code = view(*opts); });
}

}  // namespace troupe::app
