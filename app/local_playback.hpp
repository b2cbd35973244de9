#pragma once
// Plays episodes of one environment in a window on this thread, one step per
// frame at a steady rate, obeying the window's keys (pause, single step,
// speed). The policy is an interface, so `troupe view` (fixed policies) and
// `troupe play` (a trained model) share the loop, the panel and the flags.
#include <cstdint>
#include <string>

#include "app/window_flags.hpp"
#include "envs/env.hpp"
#include "viewer/overlay_info.hpp"
#include "viewer/viewer_window.hpp"

namespace troupe::app {

class playback_policy {
 public:
  virtual ~playback_policy() = default;
  // Episode `episode` (0, 1, ...) begins: the seed to reset the environment with.
  virtual std::uint64_t start_episode(long episode) = 0;
  // The action for `observation`. Fills the panel's action fields (and any
  // other it knows, such as the parameter version) for this observation.
  virtual void act(const float* observation, float* action, viewer::overlay_info& info) = 0;
  // Whether act() can answer now. A person's policy waits for their move in
  // `window` (the state stays on screen meanwhile, `info` saying so); a
  // program's is always ready.
  virtual bool ready(viewer::viewer_window& window, viewer::overlay_info& info) { return true; }
};

struct playback_options {
  std::string who;    // "troupe view": starts every line it prints
  std::string title;  // the window's
  long episodes = 0;  // stop after N episodes (0: until the window closes)
  double fps = 30.0;  // steps (frames) per second at speed x1; 0: as fast as drawn
  // How long an episode's last state stays on screen before the next
  // episode begins (a person playing wants to see how a game ended).
  double hold_end_seconds = 0.0;
  window_flags window;
};

// Each frame shows a state with what the policy made of it; then the policy's
// action is taken. Returns when the window closes, the episodes or frames are
// done, or on SIGINT/SIGTERM; saves the --screenshot and prints a summary.
// Throws config_error when the environment cannot render itself.
void play_in_window(envs::env& env, playback_policy& policy, const playback_options& options);

}  // namespace troupe::app
