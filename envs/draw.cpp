#include "envs/draw.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace troupe::envs::draw {

namespace {
// Sets pixels [x_begin, x_end) of row y, clipped to the frame.
void fill_span(rgb_frame& frame, int y, int x_begin, int x_end, color c) {
  if (y < 0 || y >= frame.height) return;
  x_begin = std::max(x_begin, 0);
  x_end = std::min(x_end, frame.width);
  for (int x = x_begin; x < x_end; ++x) frame.set(x, y, c.r, c.g, c.b);
}

// The first pixel whose centre is at or right of `coordinate`.
int first_covered(double coordinate) { return static_cast<int>(std::ceil(coordinate - 0.5)); }
}  // namespace

void clear(rgb_frame& frame, color c) {
  // One row pixel by pixel, then copies of it: a viewer's agent clears a
  // whole picture for every frame it renders during training.
  auto& px = frame.pixels;
  const size_t row = size_t(std::max(frame.width, 0)) * 3;
  if (row == 0 || px.size() != row * size_t(std::max(frame.height, 0))) {
    for (size_t i = 0; i + 2 < px.size(); i += 3) px[i] = c.r, px[i + 1] = c.g, px[i + 2] = c.b;
    return;
  }
  for (size_t i = 0; i < row; i += 3) px[i] = c.r, px[i + 1] = c.g, px[i + 2] = c.b;
  for (size_t at = row; at < px.size(); at += row) std::memcpy(&px[at], px.data(), row);
}

void fill_rect(rgb_frame& frame, double x0, double y0, double x1, double y1, color c) {
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  const int row_end = std::min(first_covered(y1), frame.height);
  for (int y = std::max(first_covered(y0), 0); y < row_end; ++y)
    fill_span(frame, y, first_covered(x0), first_covered(x1), c);
}

void fill_polygon(rgb_frame& frame, const std::vector<point>& vertices, color c) {
  if (vertices.size() < 3) return;
  double top = vertices[0].y, bottom = vertices[0].y;
  for (const point& p : vertices) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
  const int row_end = std::min(first_covered(bottom), frame.height);
  std::vector<double> crossings;
  for (int y = std::max(first_covered(top), 0); y < row_end; ++y) {
    const double yc = y + 0.5;
    crossings.clear();
    for (size_t i = 0; i < vertices.size(); ++i) {
      const point& a = vertices[i];
      const point& b = vertices[(i + 1) % vertices.size()];
      // Half-open in y, so a vertex shared by two edges is counted once.
      if ((a.y <= yc && yc < b.y) || (b.y <= yc && yc < a.y))
        crossings.push_back(a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y));
    }
    std::sort(crossings.begin(), crossings.end());
    for (size_t i = 0; i + 1 < crossings.size(); i += 2)
      fill_span(frame, y, first_covered(crossings[i]), first_covered(crossings[i + 1]), c);
  }
}

void thick_line(rgb_frame& frame, point a, point b, double width, color c) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length = std::hypot(dx, dy);
  if (length == 0.0) {
    fill_rect(frame, a.x - width / 2, a.y - width / 2, a.x + width / 2, a.y + width / 2, c);
    return;
  }
  // Half the width along the unit normal.
  const double nx = -dy / length * width / 2, ny = dx / length * width / 2;
  fill_polygon(frame,
               {{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny},
                {a.x - nx, a.y - ny}},
               c);
}

void polyline(rgb_frame& frame, const std::vector<point>& points, double width, color c) {
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    thick_line(frame, points[i], points[i + 1], width, c);
    if (i > 0) fill_circle(frame, points[i], width / 2, c);
  }
}

void fill_circle(rgb_frame& frame, point centre, double radius, color c) {
  const int row_end = std::min(first_covered(centre.y + radius), frame.height);
  for (int y = std::max(first_covered(centre.y - radius), 0); y < row_end; ++y) {
    const double dy = y + 0.5 - centre.y;
    const double half = std::sqrt(std::max(0.0, radius * radius - dy * dy));
    fill_span(frame, y, first_covered(centre.x - half), first_covered(centre.x + half), c);
  }
}

}  // namespace troupe::envs::draw
