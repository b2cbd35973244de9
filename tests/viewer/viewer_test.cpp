// The viewer: PNG writing, the bitmap font, the panel, and the real window
// end to end under a virtual X server (xvfb-run).
#include <doctest/doctest.h>

#include <algorithm>

#include <SDL.h>
#include <png.h>
#include <sys/wait.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "envs/render.hpp"
#include "tests/e2e/process.hpp"
#include "tests/viewer/headless.hpp"
#include "tests/viewer/sdl_events.hpp"
#include "viewer/overlay_panel.hpp"
#include "viewer/png_writer.hpp"
#include "viewer/text_overlay.hpp"
#include "viewer/viewer_window.hpp"

using troupe::envs::rgb_frame;
namespace fs = std::filesystem;

namespace {

using troupe::tests::colour_counts;
using troupe::tests::count_of;
using troupe::tests::empty_dir;
using troupe::tests::read_png;
using troupe::tests::rgb;

using troupe::tests::dummy_video;
using troupe::tests::press;

rgb_frame solid(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  rgb_frame f;
  f.resize(10, 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x) f.set(x, y, r, g, b);
  return f;
}

using troupe::tests::command_result;
command_result run_shell(const std::string& cmd) { return troupe::tests::run_command(cmd); }

// `troupe view ARGS` in a fresh virtual X server, bounded in time.
command_result view_headless(const std::string& args) {
  return troupe::tests::troupe_headless("view " + args);
}

}  // namespace

TEST_SUITE("viewer") {
TEST_CASE("a PNG written by write_png reads back with the same pixels") {
  rgb_frame frame;
  frame.resize(7, 5);
  for (int y = 0; y < frame.height; ++y)
    for (int x = 0; x < frame.width; ++x)
      frame.set(x, y, std::uint8_t(x * 36), std::uint8_t(y * 60), std::uint8_t((x * y * 13) % 256));
  frame.set(0, 0, 255, 0, 0);
  frame.set(6, 4, 1, 2, 3);
  const std::string path = (empty_dir("png") / "roundtrip.png").string();
  troupe::viewer::write_png(path, frame);
  const rgb_frame back = read_png(path);
  CHECK(back.width == 7);
  CHECK(back.height == 5);
  CHECK(back.pixels == frame.pixels);
}

TEST_CASE("write_png explains what is wrong") {
  const fs::path dir = empty_dir("png_errors");
  rgb_frame empty;
  CHECK_THROWS_WITH_AS(troupe::viewer::write_png((dir / "e.png").string(), empty),
                       doctest::Contains("the frame is empty"), troupe::viewer::png_error);
  rgb_frame bad;
  bad.resize(4, 4);
  bad.pixels.pop_back();
  CHECK_THROWS_WITH_AS(troupe::viewer::write_png((dir / "b.png").string(), bad),
                       doctest::Contains("47 bytes, not the 48"), troupe::viewer::png_error);
  rgb_frame ok;
  ok.resize(2, 2);
  const std::string missing = (dir / "no_such_dir" / "x.png").string();
  CHECK_THROWS_WITH_AS(troupe::viewer::write_png(missing, ok),
                       doctest::Contains(("cannot write PNG '" + missing + "': No such file").c_str()),
                       troupe::viewer::png_error);
}

TEST_CASE("drawing text changes exactly the glyph's pixels, scaled") {
  using troupe::viewer::draw_text;
  rgb_frame frame;
  frame.resize(20, 20);
  draw_text(frame, 2, 3, "A", {255, 255, 255});
  const auto counts = colour_counts(frame);
  long glyph_bits = 0;
  for (int row = 0; row < troupe::viewer::glyph_height; ++row)
    for (int col = 0; col < troupe::viewer::glyph_width; ++col)
      glyph_bits += (troupe::viewer::glyph('A')[row] >> col) & 1;
  CHECK(glyph_bits > 0);
  CHECK(count_of(counts, {255, 255, 255}) == glyph_bits);
  // Nothing outside the glyph's 5x8 cell at (2, 3).
  for (int y = 0; y < frame.height; ++y)
    for (int x = 0; x < frame.width; ++x)
      if (x < 2 || x >= 7 || y < 3 || y >= 11) CHECK(frame.pixels[(y * 20 + x) * 3] == 0);
  // 'A': its top row's middle is set, its top-left corner is not.
  CHECK(frame.pixels[(3 * 20 + 4) * 3] == 255);
  CHECK(frame.pixels[(3 * 20 + 2) * 3] == 0);

  rgb_frame big;
  big.resize(40, 40);
  draw_text(big, 0, 0, "A", {9, 9, 9}, 3);
  CHECK(count_of(colour_counts(big), {9, 9, 9}) == glyph_bits * 9);
}

TEST_CASE("every printable character has a glyph; others draw a box and never crash") {
  for (int c = 33; c <= 126; ++c) {
    CAPTURE(c);
    const unsigned char* g = troupe::viewer::glyph(char(c));
    REQUIRE(g != nullptr);
    int bits = 0;
    for (int row = 0; row < troupe::viewer::glyph_height; ++row) bits += g[row] != 0;
    CHECK(bits > 0);
  }
  CHECK(troupe::viewer::glyph(' ') != nullptr);
  CHECK(troupe::viewer::glyph('\x01') == nullptr);
  CHECK(troupe::viewer::glyph(char(200)) == nullptr);

  rgb_frame frame;
  frame.resize(30, 12);
  const std::string odd = std::string("\x01\x7f\xff\t") + char(0) + "\xc3\xa9";
  troupe::viewer::draw_text(frame, 0, 0, odd, {200, 10, 10});
  CHECK(count_of(colour_counts(frame), {200, 10, 10}) > 0);  // hollow boxes
  // Far outside the frame, partly outside, huge scale, empty: all clipped.
  troupe::viewer::draw_text(frame, -1000, -1000, "clip me", {1, 1, 1});
  troupe::viewer::draw_text(frame, 25, 8, "edge\nnext", {1, 1, 1}, 4);
  troupe::viewer::draw_text(frame, 1 << 30, 1 << 30, "far", {1, 1, 1});
  troupe::viewer::draw_text(frame, 0, 0, "", {1, 1, 1});
  rgb_frame none;
  troupe::viewer::draw_text(none, 0, 0, "no frame", {1, 1, 1});
  CHECK(troupe::viewer::text_width("ab\ncde") == 3 * 6 - 1);
  CHECK(troupe::viewer::text_height("ab\ncde", 2) == (10 + 8) * 2);
}

TEST_CASE("the panel sits right of the frame, which keeps its exact colours") {
  rgb_frame frame;
  frame.resize(10, 10);  // a MinAtar board is 10x10 cells
  frame.set(3, 4, 70, 130, 220);
  troupe::viewer::overlay_info info;
  info.title = "MinAtar/Breakout-v1";
  info.episode = 2;
  info.episode_return = 3.5;
  info.action_probabilities = {0.2f, 0.5f, 0.3f};
  info.action_names = {"noop", "left", "right"};
  info.chosen_actions = {1};
  const rgb_frame out = troupe::viewer::compose(frame, info, {});
  const int k = troupe::viewer::frame_scale(10);
  CHECK(k * 10 >= troupe::viewer::panel_layout::min_height);
  CHECK(out.width == 10 * k + troupe::viewer::panel_layout::width);
  CHECK(out.height == 10 * k);
  CHECK(count_of(colour_counts(out), {70, 130, 220}) == k * k);  // one cell, scaled up
  // The panel holds text and bars in several colours.
  std::set<rgb> panel_colours;
  for (int y = 0; y < out.height; ++y)
    for (int x = 10 * k; x < out.width; ++x) {
      const std::uint8_t* p = &out.pixels[(size_t(y) * out.width + x) * 3];
      panel_colours.insert({p[0], p[1], p[2]});
    }
  CHECK(panel_colours.size() > 5);
  // The window's state is drawn too: pausing changes the picture.
  troupe::viewer::viewer_status paused;
  paused.paused = true;
  CHECK(troupe::viewer::compose(frame, info, paused).pixels != out.pixels);

  // Continuous values and absent fields; an empty frame yields the panel alone.
  troupe::viewer::overlay_info values;
  values.action_values = {-1.5f, 0.25f};
  const rgb_frame alone = troupe::viewer::compose(rgb_frame{}, values, {true, 0.25, 1, 3});
  CHECK(alone.width == troupe::viewer::panel_layout::width);
  CHECK(alone.height == troupe::viewer::panel_layout::min_height);
}

TEST_CASE("a two-player game's panel puts the other seat's bars beside the policy's, each its own move highlighted") {
  rgb_frame board;
  board.resize(336, 288);  // Connect Four's picture
  troupe::viewer::overlay_info info;
  info.title = "ConnectFour-v0";
  info.action_probabilities = {0.02f, 0.02f, 0.9f, 0.02f, 0.02f, 0.01f, 0.01f};
  info.chosen_actions = {2};
  info.seat = "second";
  info.other_player = "snapshot 117";
  info.other_probabilities = {0.1f, 0.1f, 0.1f, 0.1f, 0.4f, 0.1f, 0.1f};
  info.other_chosen = {4};
  info.other_legal = {1, 1, 1, 1, 1, 1, 0};
  const int fw = 336 * troupe::viewer::frame_scale(288);
  const int bar_x = fw + 74, column_end = fw + 161, other_x = fw + 167;  // overlay_panel.cpp's layout
  // The picture rows where the highlight colour lies in the policy's column, and in the other's.
  auto highlighted = [&](const rgb_frame& out, int x0, int x1) {
    std::set<int> rows;
    for (int y = 0; y < out.height; ++y)
      for (int x = x0; x < x1; ++x) {
        const std::uint8_t* p = &out.pixels[(size_t(y) * out.width + x) * 3];
        if (p[0] == 238 && p[1] == 188 && p[2] == 72) rows.insert(y);
      }
    return rows;
  };
  const rgb_frame two = troupe::viewer::compose(board, info, {});
  const std::set<int> mine = highlighted(two, bar_x, column_end), theirs = highlighted(two, other_x, two.width);
  REQUIRE_FALSE(mine.empty());
  REQUIRE_FALSE(theirs.empty());
  CHECK(*theirs.begin() > *mine.rbegin());  // its move (column 5) is drawn rows below the policy's (column 3)
  // Without the other seat: one column, the policy's bar reaching into where the other's would be.
  troupe::viewer::overlay_info alone = info;
  alone.other_probabilities.clear();
  alone.other_chosen.clear();
  alone.other_legal.clear();
  const rgb_frame one = troupe::viewer::compose(board, alone, {});
  const std::set<int> wide = highlighted(one, other_x, one.width), left = highlighted(one, bar_x, column_end);
  CHECK_FALSE(wide.empty());
  CHECK(std::includes(left.begin(), left.end(), wide.begin(), wide.end()));
  CHECK(one.pixels != two.pixels);
  // A player without a policy (a built-in search): its move alone, a full bar.
  troupe::viewer::overlay_info search = info;
  search.other_player = "alphabeta:2";
  search.other_probabilities.clear();
  const rgb_frame moved = troupe::viewer::compose(board, search, {});
  CHECK(highlighted(moved, other_x, moved.width) == highlighted(two, other_x, two.width));
}

TEST_CASE("the window shows only the newest frame and obeys its keys") {
  dummy_video video;
  troupe::viewer::viewer_window window;
  const auto top_left = [&] {
    const rgb_frame shown = window.last_shown();
    REQUIRE(shown.width > 0);
    return rgb{shown.pixels[0], shown.pixels[1], shown.pixels[2]};
  };
  CHECK(window.last_shown().width == 0);
  CHECK_THROWS_WITH(window.save_screenshot("never.png"), doctest::Contains("no frame"));

  // Three frames before the window draws: the first two are dropped.
  std::thread producer([&] {
    for (std::uint8_t i = 1; i <= 3; ++i) window.show(solid(i, i, i), {}, true);
  });
  producer.join();
  CHECK(window.poll_events());
  CHECK(window.frames_shown() == 1);
  CHECK(window.frames_dropped() == 2);
  CHECK(top_left() == rgb{3, 3, 3});

  // Paused: new frames wait; a single step lets exactly one through.
  press(SDLK_SPACE);
  CHECK(window.poll_events());
  CHECK(window.paused());
  CHECK_FALSE(window.wants_frame());
  window.show(solid(4, 4, 4), {}, true);
  CHECK(window.poll_events());
  CHECK(window.frames_shown() == 1);
  press(SDLK_PERIOD);
  CHECK(window.poll_events());
  CHECK(window.frames_shown() == 2);
  CHECK(top_left() == rgb{4, 4, 4});
  CHECK_FALSE(window.wants_frame());
  press(SDLK_RIGHT);
  CHECK(window.poll_events());
  CHECK(window.wants_frame());  // the step waits for its frame
  window.show(solid(5, 5, 5), {}, true);
  CHECK(window.poll_events());
  CHECK(window.frames_shown() == 3);
  CHECK_FALSE(window.wants_frame());
  press(SDLK_SPACE);
  CHECK(window.poll_events());
  CHECK_FALSE(window.paused());
  CHECK(window.wants_frame());

  // Speed doubles and halves; agents cycle modulo their count.
  press(SDLK_PLUS);
  press(SDLK_EQUALS);
  CHECK(window.poll_events());
  CHECK(window.speed() == 4.0);
  for (int i = 0; i < 4; ++i) press(SDLK_MINUS);
  CHECK(window.poll_events());
  CHECK(window.speed() == 0.25);
  window.set_agent_count(3);
  press(SDLK_n);
  CHECK(window.poll_events());
  CHECK(window.selected_agent() == 1);
  press(SDLK_TAB);
  press(SDLK_n);
  CHECK(window.poll_events());
  CHECK(window.selected_agent() == 0);

  const std::string png = (empty_dir("window") / "shot.png").string();
  window.save_screenshot(png);
  CHECK(read_png(png).pixels == window.last_shown().pixels);

  press(SDLK_q);
  CHECK_FALSE(window.poll_events());
  CHECK(window.quit_requested());
}

TEST_CASE("a producer thread never waits for the window, and every frame is shown or dropped") {
  dummy_video video;
  troupe::viewer::viewer_window window;
  constexpr int frames = 3000;
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (int i = 0; i < frames; ++i) {
      troupe::viewer::overlay_info info;
      info.step = i;
      window.show(solid(std::uint8_t(i), 0, 0), std::move(info));
    }
    done = true;
  });
  while (!done) window.poll_events();
  producer.join();
  window.poll_events();  // the last pending frame
  CHECK(window.frames_shown() + window.frames_dropped() == frames);
  CHECK(window.frames_shown() >= 1);
  const rgb_frame last = window.last_shown();
  CHECK(last.pixels[0] == std::uint8_t(frames - 1));  // the newest frame is what shows
}

TEST_CASE("troupe view rejects an unknown environment before opening a window") {
  const auto r = run_shell(std::string(TROUPE_BINARY) + " view NoSuchEnv-v0 --frames 1");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("NoSuchEnv-v0") != std::string::npos);
}

TEST_CASE("troupe view shows CartPole headless and saves a screenshot of it") {
  const std::string png = (empty_dir("cartpole") / "cartpole.png").string();
  const auto r = view_headless("CartPole-v1 --policy random --frames 30 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const rgb_frame shot = read_png(png);
  CHECK(shot.width == 600 + troupe::viewer::panel_layout::width);
  CHECK(shot.height == 400);
  troupe::tests::check_shows_cartpole(shot);
  CHECK(r.output.find("30 frames") != std::string::npos);
}

TEST_CASE("troupe view shows a Python environment and a plugin, or says how to make them draw") {
  const std::string png = (empty_dir("python") / "python.png").string();
  const std::string python = "python:cartpole_py:make --set env.python_path=[" +
                             std::string(TROUPE_SOURCE_DIR) + "/examples/python_env]";
  const auto r = view_headless(python + " --set 'env.kwargs={render_mode: rgb_array}' --frames 10 "
                               "--fps 0 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  troupe::tests::check_shows_cartpole(read_png(png));
  const auto plain = view_headless(python + " --frames 10");
  INFO(plain.output);
  CHECK(plain.exit_code == 2);
  CHECK(plain.output.find("render_mode") != std::string::npos);
  const std::string lights = (empty_dir("plugin") / "plugin.png").string();
  const auto plugin = view_headless(std::string("plugin:") + TROUPE_TEST_SIGNAL_PLUGIN +
                                    " --frames 5 --fps 0 --screenshot " + lights);
  INFO(plugin.output);
  REQUIRE(plugin.exit_code == 0);
  const auto counts = colour_counts(read_png(lights));
  CHECK(count_of(counts, {255, 220, 0}) > 100);  // the lit light
}

TEST_CASE("troupe view shows MinAtar Breakout headless in its channel colours") {
  const std::string png = (empty_dir("breakout") / "breakout.png").string();
  const auto r =
      view_headless("MinAtar/Breakout-v1 --policy random --frames 30 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const rgb_frame shot = read_png(png);
  CHECK(shot.width == 400 + troupe::viewer::panel_layout::width);
  CHECK(shot.height == 400);
  const auto counts = colour_counts(shot);
  const long cell = 40 * 40;  // a 10-pixel board cell, scaled x4
  CHECK(counts.size() > 5);
  CHECK(count_of(counts, {16, 16, 24}) > 50 * cell);     // the background
  CHECK(count_of(counts, {70, 130, 220}) >= 10 * cell);  // bricks
  CHECK(count_of(counts, {230, 230, 230}) == cell);      // the paddle
  CHECK(count_of(counts, {255, 120, 40}) == cell);       // the ball
}

TEST_CASE("troupe view shows a MuJoCo task headless, in its model's colours, and records it") {
  const fs::path dir = empty_dir("mujoco");
  const std::string png = (dir / "cheetah.png").string();
  const auto r = view_headless("HalfCheetah-v4 --policy random --frames 20 --fps 0 --screenshot " + png +
                               " --record " + (dir / "frames").string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const rgb_frame shot = read_png(png);
  CHECK(shot.width == 640 + troupe::viewer::panel_layout::width);
  CHECK(shot.height >= 360);
  const auto counts = colour_counts(shot);
  // half_cheetah.xml's colours: rgba 0.8 0.6 0.4 for the torso and thighs,
  // 0.9 0.6 0.6 for the shins and feet.
  CHECK(count_of(counts, {204, 153, 102}) > 500);
  CHECK(count_of(counts, {230, 153, 153}) > 200);
  CHECK(read_png((dir / "frames" / "frame_000019.png").string()).width == shot.width);
  CHECK_FALSE(fs::exists(dir / "frames" / "frame_000020.png"));
}

TEST_CASE("troupe view --record writes every frame shown as a PNG") {
  const fs::path dir = empty_dir("record");
  const auto r = view_headless("MountainCar-v0 --policy noop --frames 5 --fps 0 --record " +
                               (dir / "frames").string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (int i = 0; i < 5; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", i);
    CAPTURE(name);
    CHECK(read_png((dir / "frames" / name).string()).width > 0);
  }
  CHECK_FALSE(fs::exists(dir / "frames" / "frame_000005.png"));
}
}
