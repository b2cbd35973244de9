#include "games/builtin/signal_game.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::games {

using envs::space;

namespace {
space one_hot(int n) { return space::box_space({n}, std::vector<double>(size_t(n), 0.0), std::vector<double>(size_t(n), 1.0)); }

// An action's value as a choice below `n`, or std::invalid_argument naming `what`.
int choice_of(float value, int n, const char* what) {
  if (!(value >= 0 && value < n && value == float(int(value))))
    throw std::invalid_argument(std::string(signal_game::id) + ": " + what + " " + std::to_string(value) +
                                " is not one of 0-" + std::to_string(n - 1));
  return int(value);
}
}  // namespace

signal_game::signal_game()
    : sender_{id, one_hot(secrets), space::discrete_space(signals), 0},
      receiver_{id, one_hot(signals), space::discrete_space(secrets), 0} {
  for (int s = 0; s < signals; ++s) sender_.action_labels.push_back("signal " + std::to_string(s));
  for (int s = 0; s < secrets; ++s) receiver_.action_labels.push_back("secret " + std::to_string(s));
}

void signal_game::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  secret_ = std::uniform_int_distribution<int>(0, secrets - 1)(rng);
  signal_ = guess_ = -1;
}

void signal_game::observe(int agent, float* observation) const {
  if (agent == 0) {
    for (int s = 0; s < secrets; ++s) observation[s] = s == secret_ ? 1.f : 0.f;
  } else {
    for (int s = 0; s < signals; ++s) observation[s] = s == signal_ ? 1.f : 0.f;
  }
}

turn_result signal_game::step(const float* action) {
  turn_result result;
  result.rewards.assign(2, 0.0);
  if (signal_ < 0) {
    signal_ = choice_of(action[0], signals, "signal");
    return result;
  }
  guess_ = choice_of(action[0], secrets, "guess");
  const double reward = guess_ == secret_ ? 1.0 : -1.0;
  result.rewards.assign(2, reward);
  result.terminated = true;
  return result;
}

void signal_game::render(rgb_frame& frame) const {
  constexpr int cell = 48, width = 3 * 2 * cell, height = signals * cell;
  constexpr envs::draw::color back{25, 25, 35}, unlit{60, 60, 75}, secret{230, 200, 60}, sent{80, 160, 230},
      right{70, 200, 90}, wrong{220, 70, 60};
  frame.resize(width, height);
  envs::draw::clear(frame, back);
  // Column c's cell i, lit in `on` when `lit`.
  const auto cell_at = [&](int column, int i, bool lit, envs::draw::color on) {
    const double x = (2 * column + 0.5) * cell, y = i * cell;
    envs::draw::fill_rect(frame, x + 4, y + 4, x + cell - 4, y + cell - 4, lit ? on : unlit);
  };
  // The receiver must not see the secret (a person may be playing it): it
  // is shown to the sender and once the guess is made.
  const bool shown = signal_ < 0 || guess_ >= 0;
  for (int i = 0; i < secrets; ++i) cell_at(0, i, shown && i == secret_, secret);
  for (int i = 0; i < signals; ++i) cell_at(1, i, i == signal_, sent);
  for (int i = 0; i < secrets; ++i) cell_at(2, i, i == guess_, guess_ == secret_ ? right : wrong);
}

int signal_game::action_at(double u, double v) const {
  if (u < 0 || u >= 1 || v < 0 || v >= 1) return -1;
  const int row = int(v * signals);  // cells are a quarter of the height each
  if (to_move() == 0) return u >= 1.0 / 3 && u < 2.0 / 3 ? row : -1;
  return u >= 2.0 / 3 && row < secrets ? row : -1;
}

}  // namespace troupe::games
