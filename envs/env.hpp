#pragma once
// The environment interface: plain C++, no actors, no tensors.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace troupe::envs {

// A discrete space has `n` actions; a box space has `shape` with bounds.
struct space {
  enum class kind { discrete, box };
  kind type = kind::discrete;
  int n = 0;                       // discrete: number of actions
  std::vector<int> shape;          // box: dimensions
  std::vector<double> low, high;   // box: per-element bounds

  static space discrete_space(int n) { return {kind::discrete, n, {}, {}, {}}; }
  static space box_space(std::vector<int> shape, std::vector<double> low,
                         std::vector<double> high) {
    return {kind::box, 0, std::move(shape), std::move(low), std::move(high)};
  }
  // Number of scalars an element of this space holds (1 for a discrete action).
  int flat_size() const;
  std::string describe() const;
};

// What an environment declares about itself, in one place: everything a
// run, a viewer or an exported policy needs to know before stepping it.
struct env_spec {
  std::string id;
  space observation;
  space action;
  int max_episode_steps = 0;  // 0 means no limit
  // Labels of the discrete actions ("left", "fire"), for viewers' panels and
  // exported policies; empty where none are known (a panel numbers them).
  std::vector<std::string> action_labels = {};
  // Frames are a coarse grid, best scaled by nearest neighbour (MinAtar).
  bool pixel_art = false;
  // A Discrete action space whose legal actions change from state to state:
  // the environment says which they are (env::action_mask), and no other
  // action is ever given to it.
  bool has_action_mask = false;
};

struct step_result {
  double reward = 0.0;
  bool terminated = false;  // the MDP reached a terminal state
  bool truncated = false;   // the time limit cut the episode
};

// One environment instance. Observations are written into caller-owned
// buffers of spec().observation.flat_size() floats, so vectors of environments
// fill one contiguous batch without copies.
class env {
 public:
  virtual ~env() = default;
  virtual const env_spec& spec() const = 0;
  virtual void reset(std::uint64_t seed, float* observation) = 0;
  // `action` holds spec().action.flat_size() values (a discrete action is its
  // index as a float). Applies the episode limit itself.
  virtual step_result step(const float* action, float* observation) = 0;
  // With spec().has_action_mask: which actions are legal in the state the
  // last reset or step left, as spec().action.n bytes into `legal` (1: legal,
  // 0: not; at least one legal). Not called otherwise.
  virtual void action_mask(std::uint8_t* legal) const {}
};

}  // namespace troupe::envs
