#include "viewer/viewer_window.hpp"

#include <SDL.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "viewer/overlay_panel.hpp"
#include "viewer/png_writer.hpp"

namespace troupe::viewer {

namespace {

constexpr double min_speed = 1.0 / 64, max_speed = 64.0;
constexpr int default_width = 864, default_height = 400;  // until the first frame
constexpr SDL_Color background{16, 16, 20, 255};          // letterbox bars

std::string sdl_error(const std::string& what) {
  return what + ": " + SDL_GetError();
}

// Mesa's software OpenGL (llvmpipe, softpipe: Xvfb, virtual machines, remote
// X) draws the same picture as SDL's own software renderer for several times
// the CPU, on threads of its own that compete with training: measured under
// Xvfb, 5.7 ms of CPU per frame against 1.7 ms.
bool on_software_opengl(SDL_Renderer* renderer) {
  SDL_RendererInfo info;
  if (SDL_GetRendererInfo(renderer, &info) != 0 || std::strncmp(info.name, "opengl", 6) != 0)
    return false;  // "opengl" and "opengles2" are the GL renderers
  using get_string_fn = const unsigned char* (*)(unsigned int);
  const auto get_string = reinterpret_cast<get_string_fn>(SDL_GL_GetProcAddress("glGetString"));
  if (get_string == nullptr) return false;
  constexpr unsigned int gl_renderer = 0x1F01;  // GL_RENDERER
  const auto* name = reinterpret_cast<const char*>(get_string(gl_renderer));
  return name != nullptr && (std::strstr(name, "llvmpipe") != nullptr ||
                             std::strstr(name, "softpipe") != nullptr ||
                             std::strstr(name, "Software Rasterizer") != nullptr);
}

bool same(const viewer_status& a, const viewer_status& b) {
  return a.paused == b.paused && a.speed == b.speed && a.agent == b.agent &&
         a.agent_count == b.agent_count;
}

}  // namespace

struct viewer_window::impl {
  struct frame_message {
    envs::rgb_frame frame;
    overlay_info info;
    bool pixel_art = false;
  };

  viewer_options options;

  // Shared with producers.
  mutable std::mutex mutex;
  std::optional<frame_message> pending;  // guarded by mutex
  std::atomic<bool> quit{false};
  std::atomic<bool> paused{false};
  std::atomic<bool> step_waiting{false};
  std::atomic<double> speed{1.0};
  std::atomic<int> agent{0};
  std::atomic<int> agent_count{1};
  std::atomic<std::int64_t> shown{0};
  std::atomic<std::int64_t> dropped{0};
  std::deque<player_input> inputs;  // guarded by mutex
  std::atomic<bool> up_held{false}, down_held{false};

  // UI thread only.
  SDL_Window* window = nullptr;
  SDL_Renderer* renderer = nullptr;
  SDL_Texture* texture = nullptr;
  int texture_w = 0, texture_h = 0;
  bool texture_pixel_art = false;
  bool fitted = false;  // window sized to the first frame
  bool dirty = true;    // the window needs drawing
  std::optional<frame_message> current;
  viewer_status drawn_status;
  envs::rgb_frame composed;

  viewer_status status() const {
    return {paused.load(), speed.load(), agent.load(), agent_count.load()};
  }

  void take(const player_input& in) {
    std::lock_guard<std::mutex> lock(mutex);
    if (inputs.size() < 16) inputs.push_back(in);
  }

  // Where the composed picture is drawn in the renderer's output: letterboxed,
  // keeping its aspect ratio.
  SDL_Rect picture_rect() const {
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(renderer, &out_w, &out_h);
    const double s = std::min(out_w / double(texture_w), out_h / double(texture_h));
    SDL_Rect dst;
    dst.w = std::max(1, int(texture_w * s + 0.5));
    dst.h = std::max(1, int(texture_h * s + 0.5));
    dst.x = (out_w - dst.w) / 2;
    dst.y = (out_h - dst.h) / 2;
    return dst;
  }

  // A click at window point (x, y), on the environment's part of the picture.
  void click(int x, int y) {
    if (texture == nullptr || !current || current->frame.width <= 0 || current->frame.height <= 0) return;
    int win_w = 0, win_h = 0, out_w = 0, out_h = 0;
    SDL_GetWindowSize(window, &win_w, &win_h);
    SDL_GetRendererOutputSize(renderer, &out_w, &out_h);
    if (win_w <= 0 || win_h <= 0) return;
    // Window points to output pixels (they differ on high-density displays),
    // to the composed picture's pixels, to the frame's part of it.
    const double px = x * double(out_w) / win_w, py = y * double(out_h) / win_h;
    const SDL_Rect dst = picture_rect();
    const double cx = (px - dst.x) * texture_w / double(dst.w), cy = (py - dst.y) * texture_h / double(dst.h);
    const int k = frame_scale(current->frame.height);
    const double u = cx / (current->frame.width * k), v = cy / (current->frame.height * k);
    if (u < 0 || u >= 1 || v < 0 || v >= 1) return;  // the panel or the bars
    take({true, u, v, -1});
  }

  void handle(const SDL_Event& e) {
    if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT) {
      click(e.button.x, e.button.y);
    } else if (e.type == SDL_QUIT) {
      quit = true;
    } else if (e.type == SDL_WINDOWEVENT) {
      if (e.window.event == SDL_WINDOWEVENT_CLOSE) quit = true;
      if (e.window.event == SDL_WINDOWEVENT_FOCUS_LOST) up_held = down_held = false;
      dirty = true;  // resized, exposed, restored: draw again
    } else if (e.type == SDL_KEYUP) {
      hold(e.key.keysym.sym, false);
    } else if (e.type == SDL_KEYDOWN) {
      const SDL_Keycode key = e.key.keysym.sym;
      hold(key, true);
      const bool repeat = e.key.repeat != 0;
      switch (key) {
        case SDLK_SPACE:
          if (!repeat) {
            paused = !paused.load();
            step_waiting = false;
          }
          break;
        case SDLK_PERIOD:
        case SDLK_RIGHT:  // held down, it steps on
          if (paused) step_waiting = true;
          break;
        case SDLK_PLUS:
        case SDLK_KP_PLUS:
        case SDLK_EQUALS:  // '+' is shift+'=' on many layouts
          speed = std::min(max_speed, speed.load() * 2);
          break;
        case SDLK_MINUS:
        case SDLK_KP_MINUS:
          speed = std::max(min_speed, speed.load() / 2);
          break;
        case SDLK_n:
        case SDLK_TAB:
          if (!repeat) agent = (agent.load() + 1) % std::max(1, agent_count.load());
          break;
        case SDLK_q:
        case SDLK_ESCAPE:
          quit = true;
          break;
        default:
          if (!repeat && key >= SDLK_0 && key <= SDLK_9) take({false, 0.0, 0.0, int(key - SDLK_0)});
          if (!repeat && key >= SDLK_KP_1 && key <= SDLK_KP_9) take({false, 0.0, 0.0, int(key - SDLK_KP_1) + 1});
          if (!repeat && key == SDLK_KP_0) take({false, 0.0, 0.0, 0});
          break;
      }
    }
  }

  void hold(SDL_Keycode key, bool down) {
    if (key == SDLK_UP || key == SDLK_w) up_held = down;
    if (key == SDLK_DOWN || key == SDLK_s) down_held = down;
  }

  void upload(bool pixel_art) {
    if (texture == nullptr || texture_w != composed.width || texture_h != composed.height) {
      if (texture != nullptr) SDL_DestroyTexture(texture);
      texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING,
                                  composed.width, composed.height);
      if (texture == nullptr) throw std::runtime_error(sdl_error("viewer: cannot create texture"));
      texture_w = composed.width;
      texture_h = composed.height;
      texture_pixel_art = !pixel_art;  // force the scale mode below
    }
    if (texture_pixel_art != pixel_art) {
      SDL_SetTextureScaleMode(texture, pixel_art ? SDL_ScaleModeNearest : SDL_ScaleModeLinear);
      texture_pixel_art = pixel_art;
    }
    SDL_UpdateTexture(texture, nullptr, composed.pixels.data(), composed.width * 3);
    if (!fitted) fit_window();
    dirty = true;
  }

  // Sizes the window to the first frame, within the display's usable area.
  void fit_window() {
    fitted = true;
    if (options.width > 0 && options.height > 0) return;
    int w = composed.width, h = composed.height;
    SDL_Rect usable;
    const int display = SDL_GetWindowDisplayIndex(window);
    if (display >= 0 && SDL_GetDisplayUsableBounds(display, &usable) == 0 && usable.w > 0 &&
        usable.h > 0) {
      const double shrink =
          std::min({1.0, 0.9 * usable.w / double(w), 0.9 * usable.h / double(h)});
      w = std::max(1, int(w * shrink));
      h = std::max(1, int(h * shrink));
    }
    SDL_SetWindowSize(window, w, h);
  }

  void draw() {
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255);
    SDL_RenderClear(renderer);
    if (texture != nullptr) {
      const SDL_Rect dst = picture_rect();
      SDL_RenderCopy(renderer, texture, nullptr, &dst);
    }
    SDL_RenderPresent(renderer);
    dirty = false;
  }

  void record() {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06lld.png", static_cast<long long>(shown - 1));
    write_png((std::filesystem::path(options.record_dir) / name).string(), composed);
  }
};

viewer_window::viewer_window(viewer_options options) : impl_(std::make_unique<impl>()) {
  impl& m = *impl_;
  m.options = std::move(options);
  m.speed = std::clamp(m.options.speed, min_speed, max_speed);
  if (!m.options.record_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(m.options.record_dir, ec);
    if (ec)
      throw std::runtime_error("viewer: cannot create the recording directory '" +
                               m.options.record_dir + "': " + ec.message());
  }
  // The host program (and CAF) keep their own SIGINT/SIGTERM handling.
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
    throw std::runtime_error(sdl_error("viewer: cannot open a window (SDL video)") +
                             "; is DISPLAY set? Without a display, run under `xvfb-run -a`");
  const int w = m.options.width > 0 ? m.options.width : default_width;
  const int h = m.options.height > 0 ? m.options.height : default_height;
  m.window = SDL_CreateWindow(m.options.title.c_str(), SDL_WINDOWPOS_CENTERED,
                              SDL_WINDOWPOS_CENTERED, w, h, SDL_WINDOW_RESIZABLE);
  if (m.window == nullptr) {
    const std::string why = sdl_error("viewer: cannot create a window");
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    throw std::runtime_error(why);
  }
  m.renderer = SDL_CreateRenderer(m.window, -1, 0);
  // Unless the user chose a renderer (SDL_RENDER_DRIVER), OpenGL without a GPU
  // gives way to SDL's software renderer, drawing straight to the window.
  if (m.renderer != nullptr && SDL_GetHint(SDL_HINT_RENDER_DRIVER) == nullptr &&
      on_software_opengl(m.renderer)) {
    SDL_DestroyRenderer(m.renderer);
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    m.renderer = nullptr;
  }
  if (m.renderer == nullptr) m.renderer = SDL_CreateRenderer(m.window, -1, SDL_RENDERER_SOFTWARE);
  if (m.renderer == nullptr) {
    const std::string why = sdl_error("viewer: cannot create a renderer");
    SDL_DestroyWindow(m.window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    throw std::runtime_error(why);
  }
  m.draw();
}

viewer_window::~viewer_window() {
  impl& m = *impl_;
  if (m.texture != nullptr) SDL_DestroyTexture(m.texture);
  SDL_DestroyRenderer(m.renderer);
  SDL_DestroyWindow(m.window);
  SDL_QuitSubSystem(SDL_INIT_VIDEO);
  if (SDL_WasInit(0) == 0) SDL_Quit();
}

void viewer_window::show(envs::rgb_frame frame, overlay_info info, bool pixel_art) {
  impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  if (m.pending) ++m.dropped;
  m.pending = impl::frame_message{std::move(frame), std::move(info), pixel_art};
}

bool viewer_window::poll_events() {
  impl& m = *impl_;
  SDL_Event e;
  while (SDL_PollEvent(&e)) m.handle(e);
  if (m.quit) return false;

  // The newest frame, unless paused without a step waiting.
  std::optional<impl::frame_message> next;
  if (!m.paused || m.step_waiting) {
    std::lock_guard<std::mutex> lock(m.mutex);
    next.swap(m.pending);
  }
  const bool fresh = next.has_value();
  if (fresh) {
    m.current = std::move(next);
    if (m.paused) m.step_waiting = false;
  }
  const viewer_status status = m.status();
  if (m.current && (fresh || !same(status, m.drawn_status))) {
    m.composed = compose(m.current->frame, m.current->info, status);
    m.drawn_status = status;
    m.upload(m.current->pixel_art);
  }
  if (fresh) {
    ++m.shown;
    if (!m.options.record_dir.empty()) m.record();
  }
  if (m.dirty) m.draw();
  return !m.quit;
}

bool viewer_window::quit_requested() const { return impl_->quit; }
void viewer_window::request_quit() { impl_->quit = true; }
bool viewer_window::paused() const { return impl_->paused; }
double viewer_window::speed() const { return impl_->speed; }
bool viewer_window::wants_frame() const { return !impl_->paused || impl_->step_waiting; }
int viewer_window::selected_agent() const { return impl_->agent; }
void viewer_window::set_agent_count(int count) {
  impl_->agent_count = std::max(1, count);
  impl_->agent = impl_->agent.load() % impl_->agent_count.load();
}

std::optional<player_input> viewer_window::take_input() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->inputs.empty()) return std::nullopt;
  const player_input in = impl_->inputs.front();
  impl_->inputs.pop_front();
  return in;
}
held_keys viewer_window::keys_held() const { return {impl_->up_held, impl_->down_held}; }

std::string viewer_window::video_driver() const {
  const char* name = SDL_GetCurrentVideoDriver();
  return name ? name : "";
}
bool viewer_window::on_screen() const {
  const std::string driver = video_driver();
  return driver != "offscreen" && driver != "dummy";
}

std::int64_t viewer_window::frames_shown() const { return impl_->shown; }
std::int64_t viewer_window::frames_dropped() const { return impl_->dropped; }

envs::rgb_frame viewer_window::last_shown() const { return impl_->composed; }

void viewer_window::save_screenshot(const std::string& path) const {
  if (impl_->composed.width == 0)
    throw std::runtime_error("viewer: no frame has been shown yet, so there is no screenshot to save to '" + path + "'");
  write_png(path, impl_->composed);
}

}  // namespace troupe::viewer
