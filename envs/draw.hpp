#pragma once
// A few drawing primitives for the environments' render(): enough to draw the
// classic-control pictures into an rgb_frame without any graphics library.
// Coordinates are in pixels, x to the right and y downward, as doubles so
// that shapes placed by the physics keep their sub-pixel position; a pixel is
// covered when its centre (x + 0.5, y + 0.5) lies inside the shape.
#include <cstdint>
#include <vector>

#include "envs/render.hpp"

namespace troupe::envs::draw {

struct color {
  std::uint8_t r = 0, g = 0, b = 0;
};

struct point {
  double x = 0.0, y = 0.0;
};

// Fills the whole frame.
void clear(rgb_frame& frame, color c);

// An axis-aligned rectangle from (x0, y0) to (x1, y1), corners in any order.
void fill_rect(rgb_frame& frame, double x0, double y0, double x1, double y1, color c);

// A simple polygon (convex or not, even-odd rule), vertices in order.
void fill_polygon(rgb_frame& frame, const std::vector<point>& vertices, color c);

// A segment `width` pixels thick with square ends (a rotated rectangle).
void thick_line(rgb_frame& frame, point a, point b, double width, color c);

// Consecutive points joined by thick lines, with round joints.
void polyline(rgb_frame& frame, const std::vector<point>& points, double width, color c);

void fill_circle(rgb_frame& frame, point centre, double radius, color c);

}  // namespace troupe::envs::draw
