#pragma once
// Helpers for the viewer's headless tests: reading PNGs back, counting their
// colours, and running `troupe` commands under a virtual X server.
#include <doctest/doctest.h>

#include <png.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "envs/render.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace troupe::tests {

using rgb = std::array<std::uint8_t, 3>;

// Read back with libpng's simplified API: a second, independent code path.
inline envs::rgb_frame read_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  INFO(path);
  REQUIRE(png_image_begin_read_from_file(&image, path.c_str()) != 0);
  image.format = PNG_FORMAT_RGB;
  envs::rgb_frame frame;
  frame.resize(int(image.width), int(image.height));
  REQUIRE(png_image_finish_read(&image, nullptr, frame.pixels.data(), 0, nullptr) != 0);
  return frame;
}

inline std::map<rgb, long> colour_counts(const envs::rgb_frame& f) {
  std::map<rgb, long> counts;
  for (size_t i = 0; i + 2 < f.pixels.size(); i += 3)
    ++counts[{f.pixels[i], f.pixels[i + 1], f.pixels[i + 2]}];
  return counts;
}

inline long count_of(const std::map<rgb, long>& counts, rgb c) {
  const auto it = counts.find(c);
  return it == counts.end() ? 0 : it->second;
}

inline std::filesystem::path empty_dir(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("troupe_viewer_" + name);
  remove_tree(dir.string());
  fs::create_directories(dir);
  return dir;
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    if (end > start && std::filesystem::exists(std::filesystem::path(dirs.substr(start, end - start)) / program))
      return true;
    start = end + 1;
  }
  return false;
}

// `troupe ARGS` in a fresh virtual X server, bounded in time.
inline command_result troupe_headless(const std::string& args, int timeout_s = 60) {
  REQUIRE_MESSAGE(on_path("xvfb-run"),
                  "xvfb-run is not installed: the viewer's headless tests need it "
                  "(apt-get install xvfb xauth, or run scripts/setup.sh)");
  REQUIRE_MESSAGE(on_path("xauth"), "xauth is not installed: xvfb-run needs it "
                                    "(apt-get install xauth, or run scripts/setup.sh)");
  return run_command("timeout " + std::to_string(timeout_s) +
                     " xvfb-run -a -s '-screen 0 1280x1024x24' " + std::string(TROUPE_BINARY) +
                     " " + args);
}

// CartPole's colours (envs/classic/cartpole.cpp) in a screenshot of the window.
inline void check_shows_cartpole(const envs::rgb_frame& shot) {
  const auto counts = colour_counts(shot);
  CHECK(counts.size() > 5);                            // not blank
  CHECK(count_of(counts, {255, 255, 255}) > 100000);  // the white sky
  CHECK(count_of(counts, {202, 152, 101}) > 300);     // the pole
  CHECK(count_of(counts, {0, 0, 0}) > 1000);          // the cart (and track)
}

}  // namespace troupe::tests
