#pragma once
// The MinAtar environment wrapper over the five games: sticky actions, seeding
// and the action sets exactly as the reference's Environment and gym ids
// `MinAtar/<Name>-v1` (see ../shared/reference/minatar/README.md).
//
// One generator serves the sticky-action draws and the game's own draws, so a
// seeded run replays the reference bit for bit. `reset(seed, obs)` behaves like
// a freshly built reference environment seeded with `seed`; `seed()` plus
// `reset(obs)` mirror the reference's own calls, where the generator and the
// previous action carry over from one episode to the next.
#include <string>
#include <variant>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/minatar/asterix.hpp"
#include "envs/minatar/breakout.hpp"
#include "envs/minatar/freeway.hpp"
#include "envs/minatar/game.hpp"
#include "envs/minatar/seaquest.hpp"
#include "envs/minatar/space_invaders.hpp"
#include "envs/render.hpp"

namespace troupe::envs {

class minatar_env final : public env, public renderable {
 public:
  enum class game { asterix, breakout, freeway, seaquest, space_invaders };
  static constexpr int cell_pixels = 10;  // rendered size of one board cell

  explicit minatar_env(game which, const minatar_options& options = {});

  // "MinAtar/Asterix-v1" and so on.
  static std::string id_of(game which);

  const env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t seed, float* observation) override;
  step_result step(const float* action, float* observation) override;

  void render(rgb_frame& frame) const override;

  // The reference's calls: a new generator (nothing else changes), and the
  // next episode on the current generator and previous action.
  void seed(std::uint64_t seed);
  void reset(float* observation);

  game which() const { return which_; }
  int channels() const { return channels_; }
  std::vector<std::string> channel_names() const;
  // The full-set index (0 no-op, 1 left, 2 up, 3 right, 4 down, 5 fire) of each action.
  const std::vector<int>& action_set() const { return action_set_; }
  // The full-set action the game executed last, after sticky substitution.
  int last_action() const { return last_action_; }
  // The game's difficulty ramp so far; -1 for games that never ramp.
  int ramp_index() const;
  minatar::colour channel_colour(int channel) const;
  static constexpr minatar::colour background{16, 16, 24};
  void observe(float* observation) const;

  // The game's state, for tests that set up rare situations.
  using game_state = std::variant<minatar::asterix, minatar::breakout, minatar::freeway,
                                  minatar::seaquest, minatar::space_invaders>;
  game_state& state() { return game_; }
  const game_state& state() const { return game_; }

 private:
  game which_;
  minatar_options options_;
  game_state game_;
  minatar::numpy_rng rng_;
  env_spec spec_;
  int channels_ = 0;
  std::vector<int> action_set_;
  int last_action_ = minatar::noop;
};

}  // namespace troupe::envs
