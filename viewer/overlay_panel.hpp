#pragma once
// Composes what the viewer shows and saves: the environment's frame (scaled
// up by an integer factor when small) with an information panel to its right.
// Plain pixels, no SDL, so screenshots and recordings equal the window's
// content and tests can check it without a display.
#include <string>

#include "envs/render.hpp"
#include "viewer/overlay_info.hpp"

namespace troupe::viewer {

// The window's own state, drawn at the foot of the panel.
struct viewer_status {
  bool paused = false;
  double speed = 1.0;     // playback speed multiplier
  int agent = 0;          // selected agent
  int agent_count = 1;    // agents there are to choose from
};

struct panel_layout {
  static constexpr int width = 264;        // panel pixels, right of the frame
  static constexpr int min_height = 360;   // small frames are scaled up to at least this
  static constexpr int font_scale = 2;
};

// The integer factor by which a frame `height` pixels tall is scaled up.
int frame_scale(int height);

// The frame scaled by frame_scale (nearest neighbour keeps every pixel's exact
// colour), then the panel. An empty frame yields a panel alone.
envs::rgb_frame compose(const envs::rgb_frame& frame, const overlay_info& info,
                        const viewer_status& status);

// "1.23k", "45.6", "-0.500": short numbers for the narrow panel.
std::string short_number(double v);

}  // namespace troupe::viewer
