#pragma once
// Rendering is a capability of its own, off the step path: an environment
// that can draw itself also implements `renderable`, and only viewers and
// recorders ask for it (dynamic_cast), so headless runs never draw.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace troupe::envs {

struct rgb_frame {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // row-major, 3 bytes (R, G, B) per pixel

  void resize(int w, int h) {
    width = w;
    height = h;
    pixels.assign(static_cast<size_t>(w) * h * 3, 0);
  }
  void set(int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    std::uint8_t* p = &pixels[(static_cast<size_t>(y) * width + x) * 3];
    p[0] = r, p[1] = g, p[2] = b;
  }
};

class renderable {
 public:
  virtual ~renderable() = default;
  // Draws the current state into `frame` (resizing it as the env likes).
  virtual void render(rgb_frame& frame) const = 0;
  // False where drawing depends on how the environment was made (a Python
  // environment without render_mode="rgb_array", a plugin without render).
  virtual bool can_render() const { return true; }
  // For a person playing (troupe play --human): the action a click at
  // (u, v) of the last picture means, u and v its fractions of the width
  // and height from the top left; -1 when a click there means none.
  virtual int action_at(double u, double v) const { return -1; }
};

}  // namespace troupe::envs
