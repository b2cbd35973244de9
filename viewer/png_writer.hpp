#pragma once
// Writes an rgb_frame as an 8-bit RGB PNG file (libpng). No SDL: screenshots,
// recordings and tests use it without a window.
#include <stdexcept>
#include <string>

#include "envs/render.hpp"

namespace troupe::viewer {

struct png_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws png_error naming the path and the reason (an empty frame, a pixel
// buffer of the wrong size, a file that cannot be opened, libpng's own error).
void write_png(const std::string& path, const envs::rgb_frame& frame);

}  // namespace troupe::viewer
