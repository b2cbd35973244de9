#include "app/window_flags.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "run/config_loader.hpp"

namespace troupe::app {

void add_window_flags(CLI::App& cmd, window_flags& flags) {
  cmd.add_option("--frames", flags.frames, "close the window after N frames shown (0: never)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--screenshot", flags.screenshot,
                 "on closing the window, save the last frame shown, panel included, as this PNG");
  cmd.add_option("--record", flags.record_dir,
                 "write every frame shown as DIR/frame_000000.png, ...");
}

std::unique_ptr<viewer::viewer_window> open_window(const std::string& title,
                                                   const window_flags& flags,
                                                   const std::string& who) {
  viewer::viewer_options options;
  options.title = title;
  options.record_dir = flags.record_dir;
  auto window = std::make_unique<viewer::viewer_window>(options);
  if (!window->on_screen())
    std::cerr << who << ": no display found (SDL video driver '" << window->video_driver()
              << "'): drawing offscreen, so only --screenshot and --record show anything. "
                 "Set DISPLAY, or run under `xvfb-run -a`.\n";
  return window;
}

bool shown_enough(const viewer::viewer_window& window, const window_flags& flags) {
  return flags.frames > 0 && window.frames_shown() >= flags.frames;
}

void report_window(const viewer::viewer_window& window, const window_flags& flags,
                   const std::string& who, const std::string& details) {
  if (!flags.screenshot.empty()) {
    window.save_screenshot(flags.screenshot);
    std::cout << who << ": screenshot " << flags.screenshot << std::endl;
  }
  std::cout << who << ": " << window.frames_shown() << " frames shown ("
            << window.frames_dropped() << " dropped)" << details;
  if (!flags.record_dir.empty()) std::cout << "; frames in " << flags.record_dir;
  std::cout << std::endl;
}

}  // namespace troupe::app
