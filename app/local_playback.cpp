#include "app/local_playback.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

#include "run/config_loader.hpp"
#include "app/commands.hpp"
#include "app/interrupts.hpp"
#include "envs/env_id.hpp"
#include "envs/env_vector.hpp"
#include "envs/render.hpp"

namespace troupe::app {

namespace {

using clock_type = std::chrono::steady_clock;

}  // namespace

void play_in_window(envs::env& env, playback_policy& policy, const playback_options& opts) {
  const auto* drawable = envs::drawable(env);
  if (drawable == nullptr) {
    const auto source = envs::env_id(env.spec().id).source();
    const bool python = source == envs::env_source::python || source == envs::env_source::gymnasium;
    throw config_error(opts.who + ": " + env.spec().id + " cannot render itself" +
                       (python ? " (a Python environment draws when made with render_mode "
                                 "\"rgb_array\": env.kwargs={render_mode: rgb_array})"
                               : ""));
  }
  const envs::env_spec& spec = env.spec();
  auto window = open_window(opts.title, opts.window, opts.who);

  std::vector<float> observation(size_t(spec.observation.flat_size()));
  std::vector<float> action(size_t(spec.action.flat_size()), 0.f);
  viewer::overlay_info info;
  info.title = spec.id;
  long episodes_done = 0, env_steps = 0, steps_at_rate = 0;
  const auto start_episode = [&] {
    env.reset(policy.start_episode(episodes_done), observation.data());
    info.episode = episodes_done + 1;
    info.episode_return = 0.0;
    info.step = 0;
  };

  const std::atomic<bool>& interrupted = catch_interrupts();
  start_episode();
  auto next_due = clock_type::now();
  auto rate_since = next_due;
  bool waiting_shown = false;  // the state a person is to move in is on screen
  bool holding = false;        // an episode's last state is on screen
  auto hold_until = next_due;
  while (window->poll_events() && !interrupted) {
    if (shown_enough(*window, opts.window)) break;
    if (holding) {
      if (clock_type::now() < hold_until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      holding = false;
      if (opts.episodes == 0 || episodes_done < opts.episodes) start_episode();
    }
    if (opts.episodes > 0 && episodes_done >= opts.episodes) break;
    if (!policy.ready(*window, info)) {
      if (!waiting_shown) {
        envs::rgb_frame frame;
        drawable->render(frame);
        window->show(std::move(frame), info, spec.pixel_art);
        waiting_shown = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    waiting_shown = false;
    const auto now = clock_type::now();
    if (!window->wants_frame() || now < next_due) {
      const auto wait = window->wants_frame() ? next_due - now : clock_type::duration::max();
      std::this_thread::sleep_for(std::min<clock_type::duration>(wait, std::chrono::milliseconds(10)));
      continue;
    }
    // This state, with what the policy makes of it; then its action.
    policy.act(observation.data(), action.data(), info);
    const double since = std::chrono::duration<double>(now - rate_since).count();
    if (since >= 0.25) {
      info.steps_per_second = (env_steps - steps_at_rate) / since;
      steps_at_rate = env_steps;
      rate_since = now;
    }
    envs::rgb_frame frame;
    drawable->render(frame);
    window->show(std::move(frame), info, spec.pixel_art);
    const envs::step_result r = env.step(action.data(), observation.data());
    ++env_steps;
    info.episode_return += r.reward;
    ++info.step;
    if (r.terminated || r.truncated) {
      ++episodes_done;
      std::cout << opts.who << ": episode " << episodes_done << " return " << info.episode_return
                << " in " << info.step << " steps" << (r.truncated ? " (time limit)" : "")
                << std::endl;
      if (opts.hold_end_seconds > 0) {
        envs::rgb_frame last;
        drawable->render(last);
        window->show(std::move(last), info, spec.pixel_art);
        holding = true;
        hold_until = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(
                                             std::chrono::duration<double>(opts.hold_end_seconds));
        continue;
      }
      if (opts.episodes == 0 || episodes_done < opts.episodes) start_episode();
    }
    if (opts.fps > 0) {
      next_due += std::chrono::duration_cast<clock_type::duration>(
          std::chrono::duration<double>(1.0 / (opts.fps * window->speed())));
      if (next_due < now) next_due = now;  // after a pause or a slow frame: no burst
    }
  }
  report_window(*window, opts.window, opts.who,
                ", " + std::to_string(env_steps) + " env steps, " + std::to_string(episodes_done) +
                    (episodes_done == 1 ? " episode finished" : " episodes finished"));
}

}  // namespace troupe::app
