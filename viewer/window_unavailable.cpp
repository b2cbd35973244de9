// The window of a build without SDL2 (CMake's TROUPE_VIEWER=OFF, as on a
// headless GPU machine that lacks X11, Wayland and sound libraries): opening
// one fails with a message that says so, the way a missing display does, so
// `view`, `play` and `train --view` exit with a clear error while training,
// evaluation and the cluster work as in every build.
#include <stdexcept>

#include "viewer/viewer_window.hpp"

namespace troupe::viewer {

struct viewer_window::impl {};

viewer_window::viewer_window(viewer_options) {
  throw std::runtime_error(
      "this troupe was built without its viewer (TROUPE_VIEWER=OFF: no SDL2), so it "
      "cannot open a window; build with SDL2 to watch");
}
viewer_window::~viewer_window() = default;
void viewer_window::show(envs::rgb_frame, overlay_info, bool) {}
bool viewer_window::poll_events() { return false; }
bool viewer_window::quit_requested() const { return true; }
void viewer_window::request_quit() {}
bool viewer_window::paused() const { return false; }
double viewer_window::speed() const { return 1.0; }
bool viewer_window::wants_frame() const { return false; }
int viewer_window::selected_agent() const { return 0; }
void viewer_window::set_agent_count(int) {}
std::optional<player_input> viewer_window::take_input() { return std::nullopt; }
held_keys viewer_window::keys_held() const { return {}; }
std::string viewer_window::video_driver() const { return "none"; }
bool viewer_window::on_screen() const { return false; }
std::int64_t viewer_window::frames_shown() const { return 0; }
std::int64_t viewer_window::frames_dropped() const { return 0; }
envs::rgb_frame viewer_window::last_shown() const { return {}; }
void viewer_window::save_screenshot(const std::string&) const {
  throw std::runtime_error("this troupe was built without its viewer: nothing was shown");
}

}  // namespace troupe::viewer
