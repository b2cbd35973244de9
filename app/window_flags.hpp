#pragma once
// What every command that opens a viewer window shares: the flags that let it
// run headless (--frames, --screenshot, --record), opening the window, and
// closing it with its screenshot and a one-line account of what it showed.
#include <memory>
#include <string>

#include "viewer/viewer_window.hpp"

namespace CLI {
class App;
}

namespace troupe::app {

struct window_flags {
  long frames = 0;          // close the window after N frames shown (0: never)
  std::string screenshot;   // on closing, save the last frame shown as this PNG
  std::string record_dir;   // write every frame shown as DIR/frame_000000.png, ...
};

void add_window_flags(CLI::App& cmd, window_flags& flags);

// Opens a window titled `title`; says so on stderr when there is no display
// (SDL draws offscreen then: only --screenshot and --record show anything).
std::unique_ptr<viewer::viewer_window> open_window(const std::string& title,
                                                   const window_flags& flags,
                                                   const std::string& who);

// True once the window showed the frames --frames asked for.
bool shown_enough(const viewer::viewer_window& window, const window_flags& flags);

// Saves the --screenshot (if asked for) and prints "<who>: N frames shown
// (D dropped)<details>". Throws when a screenshot was asked for but nothing
// was ever shown.
void report_window(const viewer::viewer_window& window, const window_flags& flags,
                   const std::string& who, const std::string& details = "");

}  // namespace troupe::app
