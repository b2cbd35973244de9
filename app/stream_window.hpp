#pragma once
// A window on this thread that shows the frames of a frame hub: this
// process's (`train --view`) or another's (`view --connect`, through
// actors/frames/frame_stream.hpp). A frame subscriber pulls them at fps times the
// window's speed, asks for none while paused, and follows the window's agent
// selection; frames that fail actors::frame_problem are logged and skipped.
#include <functional>
#include <string>

#include "actors/frames/frame_hub.hpp"
#include "app/window_flags.hpp"

namespace troupe::app {

struct stream_view_options {
  std::string who;    // "troupe train": starts every line it prints
  std::string title;  // the window's
  double fps = 30.0;  // frames pulled per second at speed x1
  window_flags window;
  // Polled by the window loop: true closes the window (the run ended, say).
  std::function<bool()> stop = [] { return false; };
};

struct stream_view_result {
  std::string ended;  // why the stream ended; empty when the window closed first
  long rejected = 0;  // frames that failed the check
};

// Returns when the window closes, --frames were shown, the stream ends or
// options.stop() is true; saves the --screenshot and prints a summary.
stream_view_result watch_frame_stream(caf::actor_system& sys, actors::frame_source hub,
                                      const stream_view_options& options);

}  // namespace troupe::app
