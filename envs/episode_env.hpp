#pragma once
// What the classic-control environments share, written once: the spec, a
// state of a fixed type, the episode's step count with its time limit, and
// the generator that draws an episode's initial state. An environment built
// on it is only its dynamics: how an episode starts, what one step does to
// the state, and what the agent observes of it.
#include <cstdint>
#include <random>

#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::envs {

template <class State>
class episode_env : public env, public renderable {
 public:
  using state_type = State;

  const env_spec& spec() const final { return spec_; }

  void reset(std::uint64_t seed, float* observation) final {
    rng_.seed(seed);
    state_ = initial_state(rng_);
    steps_ = 0;
    write_observation(observation);
  }

  // An episode still running after spec().max_episode_steps is truncated.
  step_result step(const float* action, float* observation) final {
    step_result result = advance(action);
    ++steps_;
    result.truncated = !result.terminated && spec_.max_episode_steps > 0 &&
                       steps_ >= spec_.max_episode_steps;
    write_observation(observation);
    return result;
  }

  const State& state() const { return state_; }
  // Starts an episode in `s` (the golden tests replay recorded states).
  void set_state(const State& s) {
    state_ = s;
    steps_ = 0;
  }

 protected:
  explicit episode_env(env_spec spec) : spec_(std::move(spec)) {}

  // The state an episode starts in, drawn from `rng` (seeded by reset).
  virtual State initial_state(std::mt19937_64& rng) = 0;
  // One step from state_ with `action`: moves state_ on and returns the
  // reward and whether the episode terminated.
  virtual step_result advance(const float* action) = 0;
  virtual void write_observation(float* observation) const = 0;

  State state_{};
  // The episode's generator, seeded by reset: for dynamics that draw.
  std::mt19937_64& rng() { return rng_; }

 private:
  env_spec spec_;
  int steps_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace troupe::envs
