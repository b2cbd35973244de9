#pragma once
// A live window onto an environment: frames scaled to the window (nearest
// neighbour for pixel-art frames, smooth otherwise) beside a panel of
// overlay_info, with keyboard controls. SDL stays inside viewer_window.cpp.
//
// Threads. One thread, the UI thread, constructs the window, calls
// poll_events() in a loop and destroys it (SDL wants its video calls on one
// thread; make it the main thread). Any thread, or a CAF actor's handler, may
// call show() and the state getters at any time: show() copies nothing into
// SDL, it only replaces the one pending frame under a mutex, so a producer is
// never blocked by drawing and the window always shows the newest frame
// (older pending frames are dropped and counted).
//
//   viewer::viewer_window window({"CartPole-v1"});
//   std::thread producer([&] {                 // or: an actor's handler
//     while (!window.quit_requested()) window.show(frame, info, false);
//   });
//   while (window.poll_events()) std::this_thread::sleep_for(10ms);
//   producer.join();
//
// Controls: space pauses/resumes; `.` or right arrow shows one more frame
// while paused; + / - double / halve speed(); n or tab selects the next agent
// (selected_agent(), modulo set_agent_count()); q, Esc or closing quits. A
// left click on the environment's picture and the digit keys are a person's
// moves, queued for take_input() (troupe play --human); the up and down
// arrows (or w and s) are read while held, by keys_held(), for games that
// move on without waiting.
//
// While paused the window keeps showing its frame and ignores new ones, except
// that a single-step key lets exactly one through. A producer that steps its
// own environment for the viewer (troupe view) asks wants_frame() first, so
// pausing it also pauses the environment; a producer that must never wait
// (training agents) just keeps calling show().
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "envs/render.hpp"
#include "viewer/overlay_info.hpp"

namespace troupe::viewer {

struct viewer_options {
  std::string title = "troupe";
  // Initial window size; 0 fits the first frame (capped to the display).
  int width = 0;
  int height = 0;
  // When set, every frame the window shows is also written to this directory
  // as frame_000000.png, frame_000001.png, ... (created if missing).
  std::string record_dir;
  double speed = 1.0;  // initial playback speed
};

// A person's move in the window: a left click on the environment's picture
// (u, v: fractions of its width and height from its top left), or a digit key.
struct player_input {
  bool click = false;
  double u = 0.0, v = 0.0;
  int digit = -1;  // 0-9, for a key
};

// Which of a person's direction keys are down now.
struct held_keys {
  bool up = false;    // up arrow or w
  bool down = false;  // down arrow or s
};

class viewer_window {
 public:
  // Opens the window. Throws std::runtime_error with SDL's reason, and a hint
  // about DISPLAY / xvfb-run, when no window can be opened.
  explicit viewer_window(viewer_options options = {});
  ~viewer_window();
  viewer_window(const viewer_window&) = delete;
  viewer_window& operator=(const viewer_window&) = delete;

  // Thread-safe. Hands the window the newest frame; an older frame not yet
  // shown is dropped. `pixel_art` frames are scaled by nearest neighbour.
  void show(envs::rgb_frame frame, overlay_info info, bool pixel_art = false);

  // UI thread. Handles pending input, draws the newest frame if one is due,
  // and returns false once quitting was requested. Never waits; call it
  // about every 10 ms or after each show().
  bool poll_events();

  // Thread-safe state, for producers.
  bool quit_requested() const;
  void request_quit();
  bool paused() const;
  double speed() const;
  // True when a frame given now would be shown: not paused, or a single step
  // is waiting for its frame.
  bool wants_frame() const;
  int selected_agent() const;
  void set_agent_count(int count);
  // Thread-safe. The oldest move not yet taken (at most 16 are kept).
  std::optional<player_input> take_input();
  // Thread-safe. The direction keys held at the last poll_events(); none once
  // the window loses the keyboard (a key released elsewhere is never seen).
  held_keys keys_held() const;

  // SDL's video driver ("x11", "wayland", ...). Without any display SDL falls
  // back to "offscreen": nothing is visible, but screenshots and recordings
  // still work; on_screen() is false then (and for "dummy").
  std::string video_driver() const;
  bool on_screen() const;

  std::int64_t frames_shown() const;    // frames drawn (each recorded when recording)
  std::int64_t frames_dropped() const;  // frames replaced before they were drawn

  // UI thread. The last drawn picture, frame and panel as in the window at
  // its composed size; empty before the first frame.
  envs::rgb_frame last_shown() const;
  // UI thread. Writes last_shown() as PNG; throws when nothing was shown yet
  // or the file cannot be written.
  void save_screenshot(const std::string& path) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace troupe::viewer
