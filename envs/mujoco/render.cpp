// How a MuJoCo task draws itself without OpenGL: every geom projected onto
// a plane, from the side (x right, z up) or from above (x right, y up),
// farthest first, over a ground with a mark every metre so that motion
// shows when the view follows the body.
#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/draw.hpp"
#include "envs/mujoco/mujoco_task.hpp"

namespace troupe::envs::mujoco {

namespace {

struct to_pixels {
  projection view;
  double centre_x, centre_y;  // metres at the frame's centre
  // (horizontal, vertical) in metres: x and z from the side, x and y from above.
  draw::point operator()(double h, double v) const {
    return {view.width / 2.0 + (h - centre_x) * view.pixels_per_metre,
            view.height / 2.0 - (v - centre_y) * view.pixels_per_metre};
  }
};

// The convex hull of `p` (Andrew's monotone chain), for a projected box.
std::vector<draw::point> hull(std::vector<draw::point> p) {
  std::sort(p.begin(), p.end(), [](auto a, auto b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  auto cross = [](draw::point o, draw::point a, draw::point b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<draw::point> h(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0) --k;
    h[k++] = p[i - 1];
  }
  h.resize(k > 1 ? k - 1 : k);
  return h;
}

// As MuJoCo colours a geom: its own rgba where it sets one (other than
// the default 0.5 0.5 0.5 1), else its material's.
draw::color colour_of(const mjModel& m, int g) {
  const float* own = &m.geom_rgba[4 * g];
  const bool default_rgba = own[0] == 0.5f && own[1] == 0.5f && own[2] == 0.5f && own[3] == 1.0f;
  const float* rgba = default_rgba && m.geom_matid[g] >= 0 ? &m.mat_rgba[4 * m.geom_matid[g]] : own;
  auto c = [](float v) { return static_cast<std::uint8_t>(std::clamp(v, 0.f, 1.f) * 255 + 0.5f); };
  return {c(rgba[0]), c(rgba[1]), c(rgba[2])};
}

}  // namespace

void mujoco_task::render(rgb_frame& frame) const {
  const mjModel& m = *m_;
  const mjData& d = *d_;
  const bool top = view_.top;
  // Horizontal, vertical and depth axes of the view.
  const int h_axis = 0, v_axis = top ? 1 : 2, depth_axis = top ? 2 : 1;
  const double follow_h = view_.follow && m.nbody > 1 ? d.xpos[3 + h_axis] : 0.0;
  const double follow_v = top && view_.follow && m.nbody > 1 ? d.xpos[3 + v_axis] : view_.centre_height;
  const to_pixels px{view_, follow_h, follow_v};
  frame.resize(view_.width, view_.height);
  draw::clear(frame, {235, 240, 245});

  // The ground: a floor line from the side, a grid from above; marks 1 m apart.
  const double half_width = view_.width / 2.0 / view_.pixels_per_metre;
  const double half_height = view_.height / 2.0 / view_.pixels_per_metre;
  const draw::color ground{170, 175, 180}, mark{120, 125, 130};
  if (!top) {
    const draw::point left = px(follow_h - half_width - 1, 0);
    draw::fill_rect(frame, 0, left.y, view_.width, view_.height, ground);
    for (double x = std::floor(follow_h - half_width); x <= follow_h + half_width + 1; x += 1.0) {
      const draw::point p = px(x, 0);
      draw::fill_rect(frame, p.x - 1, p.y, p.x + 1, p.y + 6, mark);
    }
  } else {
    for (double x = std::floor(follow_h - half_width); x <= follow_h + half_width + 1; x += 1.0)
      draw::thick_line(frame, px(x, follow_v - half_height - 1), px(x, follow_v + half_height + 1), 1, ground);
    for (double y = std::floor(follow_v - half_height); y <= follow_v + half_height + 1; y += 1.0)
      draw::thick_line(frame, px(follow_h - half_width - 1, y), px(follow_h + half_width + 1, y), 1, ground);
  }

  // Farthest first: from the side, larger y is farther; from above, lower z.
  std::vector<int> order;
  for (int g = 0; g < m.ngeom; ++g)
    if (m.geom_type[g] != mjGEOM_PLANE && m.geom_rgba[4 * g + 3] > 0) order.push_back(g);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double da = d.geom_xpos[3 * a + depth_axis], db = d.geom_xpos[3 * b + depth_axis];
    return top ? da < db : da > db;
  });
  for (int g : order) {
    const double* pos = &d.geom_xpos[3 * g];
    const double* mat = &d.geom_xmat[9 * g];
    const double* size = &m.geom_size[3 * g];
    const draw::color c = colour_of(m, g);
    const double scale = view_.pixels_per_metre;
    auto project = [&](const double p[3]) { return px(p[h_axis], p[v_axis]); };
    switch (m.geom_type[g]) {
      case mjGEOM_SPHERE:
      case mjGEOM_ELLIPSOID:
        draw::fill_circle(frame, project(pos), size[0] * scale, c);
        break;
      case mjGEOM_CAPSULE:
      case mjGEOM_CYLINDER: {
        // The geom's own z axis is the third column of its rotation.
        double a[3], b[3];
        for (int i = 0; i < 3; ++i) {
          a[i] = pos[i] - size[1] * mat[3 * i + 2];
          b[i] = pos[i] + size[1] * mat[3 * i + 2];
        }
        draw::thick_line(frame, project(a), project(b), 2 * size[0] * scale, c);
        if (m.geom_type[g] == mjGEOM_CAPSULE) {
          draw::fill_circle(frame, project(a), size[0] * scale, c);
          draw::fill_circle(frame, project(b), size[0] * scale, c);
        }
        break;
      }
      case mjGEOM_BOX: {
        std::vector<draw::point> corners;
        for (int corner = 0; corner < 8; ++corner) {
          double p[3];
          for (int i = 0; i < 3; ++i) {
            p[i] = pos[i];
            for (int j = 0; j < 3; ++j) p[i] += mat[3 * i + j] * size[j] * ((corner >> j) & 1 ? 1 : -1);
          }
          corners.push_back(project(p));
        }
        draw::fill_polygon(frame, hull(corners), c);
        break;
      }
      default:
        draw::fill_circle(frame, project(pos), std::max(2.0, size[0] * scale), c);
    }
  }
}

}  // namespace troupe::envs::mujoco
