#include "viewer/overlay_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "envs/draw.hpp"
#include "viewer/text_overlay.hpp"

namespace troupe::viewer {

namespace {

using envs::draw::color;

// Chosen not to equal any environment's palette, so tests that look for an
// environment's colours in a screenshot are not fooled by the panel.
constexpr color panel_background{28, 28, 36};
constexpr color separator{62, 62, 76};
constexpr color text_color{222, 222, 212};
constexpr color dim_text{150, 150, 162};
constexpr color title_color{126, 198, 250};
constexpr color bar_background{56, 56, 70};
constexpr color bar_fill{96, 184, 112};
constexpr color chosen_fill{238, 188, 72};
constexpr color paused_color{250, 206, 64};

constexpr int margin = 10;
constexpr int scale = panel_layout::font_scale;
constexpr int row = line_advance * scale + 2;  // one panel line
constexpr int chars_per_line = (panel_layout::width - 2 * margin) / (glyph_advance * scale);

std::string fit(std::string s, size_t n) {
  if (s.size() > n) s.resize(n);
  return s;
}

std::string field(const char* name, const std::string& value) {
  std::string line = name;
  line.resize(std::max<size_t>(line.size() + 1, 9), ' ');
  return fit(line + value, chars_per_line);
}

std::string speed_text(double speed) {
  char buf[24];
  if (speed >= 1)
    std::snprintf(buf, sizeof buf, "x%g", speed);
  else
    std::snprintf(buf, sizeof buf, "x1/%g", 1 / speed);
  return buf;
}

std::string probability_text(float p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(p));
  return buf;
}

void fill(envs::rgb_frame& f, double x0, double y0, double x1, double y1, color c) {
  envs::draw::fill_rect(f, x0, y0, x1, y1, c);
}

// The beginning the first `count` names share, up to its last space or
// underscore, when every one of them is longer than `room`; else "".
std::string shared_beginning(const std::vector<std::string>& names, size_t count, size_t room) {
  if (count < 2 || names.size() < count) return "";
  std::string common = names[0];
  for (size_t i = 0; i < count; ++i) {
    if (names[i].size() <= room) return "";
    size_t n = 0;
    while (n < common.size() && n < names[i].size() && common[n] == names[i][n]) ++n;
    common.resize(n);
  }
  const size_t cut = common.find_last_of(" _");
  if (cut == std::string::npos) return "";
  common.resize(cut + 1);
  return common.substr(0, common.find_last_not_of(" _") + 1);
}

}  // namespace

std::string short_number(double v) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2fG", v / 1e9);
  else if (a >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  else if (a >= 1e4)
    std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  else if (a >= 100 || v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

int frame_scale(int height) {
  if (height <= 0) return 1;
  return std::max(1, (panel_layout::min_height + height - 1) / height);
}

envs::rgb_frame compose(const envs::rgb_frame& frame, const overlay_info& info,
                        const viewer_status& status) {
  const bool has_frame = frame.width > 0 && frame.height > 0 &&
                         frame.pixels.size() == size_t(frame.width) * frame.height * 3;
  const int k = has_frame ? frame_scale(frame.height) : 1;
  const int fw = has_frame ? frame.width * k : 0, fh = has_frame ? frame.height * k : 0;
  const int pw = panel_layout::width;
  envs::rgb_frame out;
  out.resize(fw + pw, std::max(fh, panel_layout::min_height));
  envs::draw::clear(out, panel_background);

  // The frame, scaled by nearest neighbour: every pixel keeps its colour.
  for (int y = 0; y < fh; ++y) {
    const std::uint8_t* src = &frame.pixels[size_t(y / k) * frame.width * 3];
    std::uint8_t* dst = &out.pixels[size_t(y) * out.width * 3];
    if (k == 1) {
      std::memcpy(dst, src, size_t(fw) * 3);
      continue;
    }
    for (int x = 0; x < fw; ++x) std::memcpy(dst + x * 3, src + (x / k) * 3, 3);
  }

  // The panel.
  const int px = fw + margin;
  fill(out, fw, 0, fw + 2, out.height, separator);
  int y = margin;
  if (!info.title.empty()) {
    // A title too long for the large font gets the small one, centred in its line.
    const bool fits = info.title.size() <= size_t(chars_per_line);
    const int title_scale = fits ? scale : 1;
    const int title_y = fits ? y : y + (glyph_height * scale - glyph_height) / 2;
    draw_text(out, px, title_y, fit(info.title, size_t(chars_per_line * scale)), title_color,
              title_scale);
    y += row + 6;
  }
  const auto line = [&](const char* name, const std::string& value) {
    draw_text(out, px, y, field(name, value), text_color, scale);
    y += row;
  };
  if (overlay_info::present(info.episode)) line("episode", std::to_string(info.episode));
  if (overlay_info::present(info.episode_return)) line("return", short_number(info.episode_return));
  if (overlay_info::present(info.step)) line("step", std::to_string(info.step));
  if (overlay_info::present(info.steps_per_second))
    line("steps/s", short_number(info.steps_per_second));
  if (overlay_info::present(info.parameter_version))
    line("version", std::to_string(info.parameter_version));
  if (!info.seat.empty()) line("seat", info.seat);
  if (!info.other_player.empty()) {
    // A long name gets the small font, centred in its line.
    if (field("against", "").size() + info.other_player.size() <= size_t(chars_per_line)) {
      line("against", info.other_player);
    } else {
      draw_text(out, px, y + (glyph_height * scale - glyph_height) / 2,
                fit("against  " + info.other_player, size_t(chars_per_line * scale)), text_color);
      y += row;
    }
  }

  // The foot: the window's state and its keys, bottom up.
  const int foot_lines = 2 + (status.agent_count > 1 ? 1 : 0);
  const int help_height = 2 * line_advance + 2;
  const int foot_top = out.height - margin - help_height - foot_lines * row;

  // Actions between the fields and the foot.
  // A discrete policy's probabilities, then a continuous action's values
  // (a hybrid action has both); action_names label the rows in that order.
  const size_t probabilities = info.action_probabilities.size();
  const size_t total = probabilities + info.action_values.size();
  // A two-player game's other seat: its bars beside the policy's, a column each.
  const bool beside = probabilities > 0 && info.action_values.empty() &&
                      (!info.other_probabilities.empty() || !info.other_chosen.empty());
  const int label_chars = 5;
  // Labels too long for their column that share a beginning ("column 0",
  // "column 1", ...) lose it to the heading ("column", then "0", "1", ...).
  const std::string shared = shared_beginning(info.action_names, probabilities, size_t(label_chars));
  if (total > 0) {
    y += 6;
    draw_text(out, px, y, !shared.empty() ? fit(shared, size_t(chars_per_line)) : probabilities > 0 ? "actions" : "action",
              dim_text, scale);
    y += row;
    const int bar_x = px + label_chars * glyph_advance * scale + 4;
    const int bar_end = fw + pw - margin;
    const int column_end = beside ? (bar_x + bar_end) / 2 - 3 : bar_end;
    const int other_x = column_end + 6;
    if (beside) {
      draw_text(out, bar_x, y + (glyph_height * scale - glyph_height) / 2, "policy", dim_text);
      draw_text(out, other_x, y + (glyph_height * scale - glyph_height) / 2, "other", dim_text);
      y += row;
    }
    // A bar of a probability in [x0, x1), its number (small) after it; a
    // masked action: no bar, its number grey.
    const auto probability_bar = [&](int x0, int x1, int bar_y0, int bar_y1, float v, bool chosen, bool masked) {
      const int number_w = text_width("0.00");
      const int bar_x1 = x1 - number_w - 4;
      if (!masked) fill(out, x0, bar_y0, bar_x1, bar_y1, bar_background);
      const float p = std::clamp(std::isnan(v) ? 0.f : v, 0.f, 1.f);
      fill(out, x0, bar_y0, x0 + (bar_x1 - x0) * p, bar_y1, chosen ? chosen_fill : bar_fill);
      draw_text(out, bar_x1 + 4, bar_y0 + (glyph_height - 1) * (scale - 1) / 2,
                masked ? "--" : probability_text(p), masked ? dim_text : text_color);
    };
    float extent = 1.f;  // continuous values: bars span [-extent, extent]
    for (float v : info.action_values) extent = std::max(extent, std::fabs(v));
    const int rows_fit = std::max(0, (foot_top - y) / row);
    const int shown = static_cast<int>(std::min<size_t>(total, size_t(rows_fit)));
    for (int i = 0; i < shown; ++i) {
      const bool more = i == shown - 1 && size_t(shown) < total;
      if (more) {
        draw_text(out, px, y, "+" + std::to_string(total - shown + 1) + " more", dim_text, scale);
        break;
      }
      const bool probs = size_t(i) < probabilities;
      const size_t index = probs ? size_t(i) : size_t(i) - probabilities;
      const size_t drop = probs && !shared.empty() ? shared.size() + 1 : 0;  // the heading's part
      const std::string label = size_t(i) < info.action_names.size()
                                    ? fit(info.action_names[size_t(i)].substr(drop), label_chars)
                                    : (probs ? "" : "a") + std::to_string(index);
      const bool chosen = probs && std::find(info.chosen_actions.begin(), info.chosen_actions.end(), i) !=
                                       info.chosen_actions.end();
      const bool masked = probs && size_t(i) < info.legal_actions.size() && !info.legal_actions[size_t(i)];
      draw_text(out, px, y, label, chosen ? chosen_fill : masked ? dim_text : text_color, scale);
      const int bar_y0 = y, bar_y1 = y + (glyph_height - 1) * scale;  // cap height
      const float v = probs ? info.action_probabilities[index] : info.action_values[index];
      if (probs) {
        probability_bar(bar_x, column_end, bar_y0, bar_y1, v, chosen, masked);
        if (beside) {
          const bool their_move = std::find(info.other_chosen.begin(), info.other_chosen.end(), i) !=
                                  info.other_chosen.end();
          const bool their_masked = size_t(i) < info.other_legal.size() && !info.other_legal[size_t(i)];
          if (size_t(i) < info.other_probabilities.size())
            probability_bar(other_x, bar_end, bar_y0, bar_y1, info.other_probabilities[size_t(i)], their_move,
                            their_masked);
          else if (their_move)  // a player without a policy: its move alone
            fill(out, other_x, bar_y0, bar_end, bar_y1, chosen_fill);
        }
      } else {
        // The number, then a bar centred on zero.
        const std::string number = short_number(v);
        draw_text(out, bar_x, y, fit(number, 6), text_color, scale);
        const int cx0 = bar_x + 6 * glyph_advance * scale + 4;
        fill(out, cx0, bar_y0, bar_end, bar_y1, bar_background);
        const double mid = (cx0 + bar_end) / 2.0, half = (bar_end - cx0) / 2.0;
        const double tip = mid + half * std::clamp(std::isnan(v) ? 0.f : v / extent, -1.f, 1.f);
        fill(out, std::min(mid, tip), bar_y0, std::max(mid, tip), bar_y1, bar_fill);
        fill(out, mid - 1, bar_y0 - 2, mid + 1, bar_y1 + 2, dim_text);
      }
      y += row;
    }
  }

  y = foot_top;
  draw_text(out, px, y, status.paused ? "PAUSED" : "playing",
            status.paused ? paused_color : dim_text, scale);
  y += row;
  draw_text(out, px, y, field("speed", speed_text(status.speed)), dim_text, scale);
  y += row;
  if (status.agent_count > 1) {
    draw_text(out, px, y,
              field("agent", std::to_string(status.agent + 1) + "/" +
                                 std::to_string(status.agent_count)),
              dim_text, scale);
    y += row;
  }
  draw_text(out, px, y, "space pause  . step  +/- speed\nn next agent  q quit", dim_text);
  return out;
}

}  // namespace troupe::viewer
