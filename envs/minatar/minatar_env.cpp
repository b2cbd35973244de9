#include "envs/minatar/minatar_env.hpp"

#include <stdexcept>

namespace troupe::envs {

namespace {
minatar_env::game_state make_game(minatar_env::game which, bool ramping) {
  minatar_env::game_state state;
  switch (which) {
    case minatar_env::game::asterix: state = minatar::asterix{}; break;
    case minatar_env::game::breakout: state = minatar::breakout{}; break;
    case minatar_env::game::freeway: state = minatar::freeway{}; break;
    case minatar_env::game::seaquest: state = minatar::seaquest{}; break;
    case minatar_env::game::space_invaders: state = minatar::space_invaders{}; break;
  }
  // Breakout and Freeway ignore the flag, as in the reference.
  std::visit([&](auto& g) { g.ramping = std::decay_t<decltype(g)>::uses_ramping && ramping; },
             state);
  return state;
}
}  // namespace

std::string minatar_env::id_of(game which) {
  const char* name = std::visit([](const auto& g) { return g.name; }, make_game(which, false));
  return std::string("MinAtar/") + name + "-v1";
}

minatar_env::minatar_env(game which, const minatar_options& options)
    : which_(which), options_(options), game_(make_game(which, options.difficulty_ramping)) {
  if (!(options.sticky_action_prob >= 0.0 && options.sticky_action_prob <= 1.0))
    throw std::invalid_argument("MinAtar: sticky_action_prob must lie in [0, 1]");
  std::visit(
      [&](const auto& g) {
        using game_type = std::decay_t<decltype(g)>;
        channels_ = game_type::channels;
        if (options.full_action_set) {
          for (int a = 0; a < minatar::num_actions; ++a) action_set_.push_back(a);
        } else {
          action_set_.assign(game_type::minimal_actions.begin(),
                             game_type::minimal_actions.end());
        }
      },
      game_);
  spec_.id = id_of(which);
  spec_.observation = space::box_space(
      {minatar::board_size, minatar::board_size, channels_},
      std::vector<double>(size_t(minatar::board_size * minatar::board_size * channels_), 0.0),
      std::vector<double>(size_t(minatar::board_size * minatar::board_size * channels_), 1.0));
  spec_.action = space::discrete_space(static_cast<int>(action_set_.size()));
  spec_.max_episode_steps = 0;  // the reference adds no time limit
  // MinAtar's full action set, indexed by its action numbers.
  static const char* names[] = {"noop", "left", "up", "right", "down", "fire"};
  for (int a : action_set_) spec_.action_labels.push_back(names[a]);
  spec_.pixel_art = true;
}

void minatar_env::seed(std::uint64_t seed) { rng_.seed(seed); }

void minatar_env::reset(float* observation) {
  std::visit([&](auto& g) { g.reset(rng_); }, game_);
  observe(observation);
}

void minatar_env::reset(std::uint64_t seed, float* observation) {
  this->seed(seed);
  last_action_ = minatar::noop;  // as in a freshly built environment
  reset(observation);
}

step_result minatar_env::step(const float* action, float* observation) {
  const int index = static_cast<int>(action[0]);
  if (index < 0 || index >= static_cast<int>(action_set_.size()))
    throw std::out_of_range("MinAtar: action " + std::to_string(index) + " outside " +
                            spec_.action.describe());
  int executed = action_set_[index];
  // The sticky draw comes first in every step, even after the game has ended.
  if (rng_.uniform() < options_.sticky_action_prob) executed = last_action_;
  last_action_ = executed;
  const minatar::act_result r = std::visit([&](auto& g) { return g.act(executed, rng_); }, game_);
  observe(observation);
  step_result result;
  result.reward = r.reward;
  result.terminated = r.terminal;
  return result;
}

void minatar_env::observe(float* observation) const {
  std::visit([&](const auto& g) { g.observe(observation); }, game_);
}

std::vector<std::string> minatar_env::channel_names() const {
  return std::visit(
      [](const auto& g) {
        const auto& names = std::decay_t<decltype(g)>::channel_names;
        return std::vector<std::string>(names.begin(), names.end());
      },
      game_);
}

int minatar_env::ramp_index() const {
  return std::visit(
      [](const auto& g) {
        using game_type = std::decay_t<decltype(g)>;
        if constexpr (game_type::uses_ramping)
          return g.ramp_index;
        else
          return -1;
      },
      game_);
}

minatar::colour minatar_env::channel_colour(int channel) const {
  return std::visit([&](const auto& g) { return std::decay_t<decltype(g)>::palette.at(channel); },
                    game_);
}

void minatar_env::render(rgb_frame& frame) const {
  constexpr int n = minatar::board_size;
  std::vector<float> cells(size_t(n * n * channels_));
  observe(cells.data());
  frame.resize(n * cell_pixels, n * cell_pixels);
  for (size_t i = 0; i < frame.pixels.size(); i += 3) {
    frame.pixels[i] = background.r;
    frame.pixels[i + 1] = background.g;
    frame.pixels[i + 2] = background.b;
  }
  std::visit(
      [&](const auto& g) {
        using game_type = std::decay_t<decltype(g)>;
        for (int c : game_type::draw_order) {
          const minatar::colour col = game_type::palette[c];
          for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
              if (cells[size_t((y * n + x) * channels_ + c)] == 0.f) continue;
              for (int py = 0; py < cell_pixels; ++py)
                for (int px = 0; px < cell_pixels; ++px)
                  frame.set(x * cell_pixels + px, y * cell_pixels + py, col.r, col.g, col.b);
            }
        }
      },
      game_);
}

}  // namespace troupe::envs
