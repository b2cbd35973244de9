#pragma once
// Text drawn straight into an rgb_frame with a built-in bitmap font (5x7
// glyphs for printable ASCII 32..126, plus a row for descenders), so overlays
// appear in screenshots and recordings exactly as on screen. No font files,
// no SDL.
#include <string_view>

#include "envs/draw.hpp"
#include "envs/render.hpp"

namespace troupe::viewer {

constexpr int glyph_width = 5;    // pixels of a glyph, before scaling
constexpr int glyph_height = 8;   // 7 rows plus one for descenders
constexpr int glyph_advance = 6;  // glyph plus one column of space
constexpr int line_advance = 10;  // glyph plus two rows of space

// The glyph of `c`, one byte per row from the top, bit 4 the leftmost column;
// nullptr for a character outside 32..126.
const unsigned char* glyph(char c);

// Width and height in pixels of `text` drawn at `scale` ('\n' starts a line).
int text_width(std::string_view text, int scale = 1);
int text_height(std::string_view text, int scale = 1);

// Draws `text` with its top-left corner at (x, y), each font pixel a
// scale x scale square; '\n' starts a new line at x. A character outside the
// font draws as a hollow box. Pixels outside the frame are clipped.
void draw_text(envs::rgb_frame& frame, int x, int y, std::string_view text,
               envs::draw::color color, int scale = 1);

}  // namespace troupe::viewer
