#pragma once
// What the five MinAtar games share: the action indices, the random generator
// (numpy's legacy RandomState rules on a Mersenne Twister, so seeded episodes
// replay the reference bit for bit), the result of one frame, and a writer for
// the 10x10xC board. Facts from ../shared/reference/minatar/README.md.
#include <algorithm>
#include <cstdint>
#include <random>

namespace troupe::envs::minatar {

// The six actions, in the reference's index order.
enum action : int { noop = 0, left = 1, up = 2, right = 3, down = 4, fire = 5 };
inline constexpr int num_actions = 6;
inline constexpr int board_size = 10;

// Draws exactly as numpy.random.RandomState does for the calls MinAtar makes.
class numpy_rng {
 public:
  void seed(std::uint64_t s) {
    // RandomState(s) for s < 2^32 is std::mt19937(s); wider seeds are folded.
    const auto folded = s <= 0xffffffffULL ? s : (s ^ (s >> 32));
    engine_.seed(static_cast<std::uint32_t>(folded));
  }
  // random_sample(): a double in [0, 1) from two 32-bit outputs.
  double uniform() {
    const std::uint32_t a = engine_() >> 5, b = engine_() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  // randint(low, high): an integer in [low, high) by masked rejection.
  int randint(int low, int high) {
    const std::uint32_t range = static_cast<std::uint32_t>(high - low - 1);
    if (range == 0) return low;
    std::uint32_t mask = range;
    for (int shift = 1; shift < 32; shift <<= 1) mask |= mask >> shift;
    std::uint32_t value;
    do value = engine_() & mask;
    while (value > range);
    return low + static_cast<int>(value);
  }

 private:
  std::mt19937 engine_;
};

// What every game's state holds besides its board: whether it speeds up as
// it goes on (Breakout and Freeway never do), how far it has ramped, and
// whether the episode is over. Each game (asterix.hpp, ...) adds its board
// and three rules: reset(rng), act(action, rng) and observe(cells).
struct game_basics {
  bool ramping = true;
  int ramp_index = 0;
  bool terminal = false;
};

// One frame's outcome: a small non-negative integer reward and the terminal flag.
struct act_result {
  int reward = 0;
  bool terminal = false;
};

// Writes cells of a [y][x][c] board of floats, zeroing it first.
class board_writer {
 public:
  board_writer(float* cells, int channels) : cells_(cells), channels_(channels) {
    std::fill_n(cells_, board_size * board_size * channels_, 0.f);
  }
  void set(int x, int y, int channel) {
    cells_[(y * board_size + x) * channels_ + channel] = 1.f;
  }
  // Like set, but cells off the board are skipped.
  void set_if_on_board(int x, int y, int channel) {
    if (on_board(x, y)) set(x, y, channel);
  }
  static bool on_board(int x, int y) {
    return x >= 0 && x < board_size && y >= 0 && y < board_size;
  }

 private:
  float* cells_;
  int channels_;
};

// A channel's colour when the board is drawn.
struct colour {
  std::uint8_t r, g, b;
};

}  // namespace troupe::envs::minatar
