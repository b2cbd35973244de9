#include "envs/games/connect_four_env.hpp"

#include <stdexcept>
#include <string>

#include "envs/draw.hpp"
#include "envs/games/connect_four_alphabeta.hpp"

namespace troupe::envs::games {

namespace {

env_spec connect_four_spec() {
  env_spec s{connect_four_env::id,
             space::box_space({connect_four::rows, connect_four::columns, 2},
                              std::vector<double>(connect_four::observation_size, 0.0),
                              std::vector<double>(connect_four::observation_size, 1.0)),
             space::discrete_space(connect_four::columns), 0};
  s.has_action_mask = true;
  for (int c = 0; c < connect_four::columns; ++c) s.action_labels.push_back("column " + std::to_string(c));
  return s;
}

}  // namespace

connect_four_env::connect_four_env(const opponent_options& options) : spec_(connect_four_spec()) {
  const std::string& o = options.opponent;
  const std::string prefix = "alphabeta:";
  if (o == "random") {
    depth_ = 0;
  } else if (o.compare(0, prefix.size(), prefix) == 0 && o.size() == prefix.size() + 1 && o.back() >= '1' &&
             o.back() <= '8') {
    depth_ = o.back() - '0';
  } else {
    throw std::invalid_argument("env.opponent: '" + o + "' is not an opponent (expected random or alphabeta:1 to alphabeta:8)");
  }
  if (options.seat == "alternate")
    seat_choice_ = -1;
  else if (options.seat == "first")
    seat_choice_ = 0;
  else if (options.seat == "second")
    seat_choice_ = 1;
  else
    throw std::invalid_argument("env.seat: '" + options.seat + "' is not a seat (expected alternate, first or second)");
}

int connect_four_env::opponent_move() {
  if (depth_ > 0) return alphabeta_move(game_, depth_, &rng_);
  std::uint8_t legal[connect_four::columns];
  game_.legal_moves(legal);
  int open = 0;
  for (std::uint8_t l : legal) open += l;
  int k = std::uniform_int_distribution<int>(0, open - 1)(rng_);
  for (int c = 0; c < connect_four::columns; ++c)
    if (legal[c] && k-- == 0) return c;
  return -1;  // not reached: a game that goes on has a legal column
}

void connect_four_env::reset(std::uint64_t seed, float* observation) {
  rng_.seed(seed);
  game_.reset();
  seat_ = seat_choice_ >= 0 ? seat_choice_ : int(rng_() % 2);
  if (seat_ == 1) game_.play(opponent_move());
  game_.observe(seat_, observation);
}

step_result connect_four_env::step(const float* action, float* observation) {
  const float a = action[0];
  if (!(a >= 0 && a < connect_four::columns && a == float(int(a))))
    throw std::invalid_argument(std::string(id) + ": action " + std::to_string(a) + " is not a column (0-6)");
  step_result result;
  connect_four::result after = game_.play(int(a));  // throws on a full column
  if (after == connect_four::result::won) {
    result.reward = 1;
  } else if (after == connect_four::result::playing) {
    after = game_.play(opponent_move());
    if (after == connect_four::result::won) result.reward = -1;
  }
  result.terminated = after != connect_four::result::playing;
  game_.observe(seat_, observation);
  return result;
}

void connect_four_env::render(rgb_frame& frame) const {
  constexpr int cell = 48;
  constexpr draw::color board{30, 70, 170}, empty{20, 20, 30}, first{220, 60, 50}, second{240, 210, 60};
  frame.resize(connect_four::columns * cell, connect_four::rows * cell);
  draw::clear(frame, board);
  for (int r = 0; r < connect_four::rows; ++r)
    for (int c = 0; c < connect_four::columns; ++c) {
      const int owner = game_.cell(r, c);
      draw::fill_circle(frame, {(c + 0.5) * cell, (r + 0.5) * cell}, cell * 0.4,
                        owner == 0 ? first : owner == 1 ? second : empty);
    }
}

}  // namespace troupe::envs::games
