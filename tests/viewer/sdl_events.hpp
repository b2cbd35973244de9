#pragma once
// The viewer's window tests drive a real viewer_window under SDL's dummy
// video driver (no display at all) and feed it input as SDL events.
#include <doctest/doctest.h>

#include <SDL.h>

#include <cstdlib>

namespace troupe::tests {

// While it lives, windows open on SDL's dummy video driver.
struct dummy_video {
  dummy_video() { setenv("SDL_VIDEODRIVER", "dummy", 1); }
  ~dummy_video() { unsetenv("SDL_VIDEODRIVER"); }
};

inline void press(SDL_Keycode key) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = key;
  REQUIRE(SDL_PushEvent(&e) == 1);
}

inline void release(SDL_Keycode key) {
  SDL_Event e{};
  e.type = SDL_KEYUP;
  e.key.keysym.sym = key;
  REQUIRE(SDL_PushEvent(&e) == 1);
}

// A left click at window point (x, y).
inline void click(int x, int y) {
  SDL_Event e{};
  e.type = SDL_MOUSEBUTTONDOWN;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.x = x;
  e.button.y = y;
  REQUIRE(SDL_PushEvent(&e) == 1);
}

}  // namespace troupe::tests
