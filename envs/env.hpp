#pragma once
// The environment interface: plain C++, no actors, no tensors.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace troupe::envs {

// One leaf of a structured observation (a Dict or Tuple, or a MultiDiscrete
// or MultiBinary alone), as the flat Box the network reads encodes it: Box
// and MultiBinary values as they are, Discrete and MultiDiscrete elements as
// one-hot rows of their choices.
struct space_leaf {
  std::string key;           // its path: Dict keys and Tuple indices joined by "." ("a.0"); "obs" alone
  std::string kind;          // box | discrete | multi_discrete | multi_binary
  std::vector<int> shape;    // a value's shape as the environment gives it ({} for a Discrete)
  std::vector<int> nvec;     // discrete kinds: each element's number of choices
  std::vector<int> start;    // discrete kinds: each element's first value
  int offset = 0, size = 0;  // its floats in the encoded row
};

// A discrete space has `n` actions; a multi-discrete space one choice
// among nvec[j] for each component j (MultiBinary is nvec all 2; a Tuple or
// Dict of discrete actions is one too, component by component); a box space
// has `shape` with bounds. A hybrid action space (a Tuple or Dict with both
// discrete and Box parts, as parameterised actions are) is the components
// of `nvec` followed by a Box of `shape` {d} with bounds: an action is the
// nvec.size() indices, then the d values.
struct space {
  enum class kind { discrete, box, multi_discrete, hybrid };
  kind type = kind::discrete;
  int n = 0;                       // discrete: number of actions
  std::vector<int> shape;          // box: dimensions
  std::vector<double> low, high;   // box: per-element bounds
  std::vector<int> nvec = {};      // multi_discrete: choices per component
  // The space as the environment declared it, where Troupe takes it in
  // another form ("Tuple(Discrete(32), Discrete(11))" observed as the Box of
  // its one-hot encodings); empty where the two are the same.
  std::string declared = {};
  // An observation space that `declared` encodes: its leaves, in order.
  std::vector<space_leaf> leaves = {};

  static space discrete_space(int n) { return {kind::discrete, n, {}, {}, {}}; }
  static space box_space(std::vector<int> shape, std::vector<double> low,
                         std::vector<double> high) {
    return {kind::box, 0, std::move(shape), std::move(low), std::move(high)};
  }
  static space multi_discrete_space(std::vector<int> nvec) {
    return {kind::multi_discrete, 0, {}, {}, {}, std::move(nvec)};
  }
  static space hybrid_space(std::vector<int> nvec, std::vector<double> low, std::vector<double> high) {
    const int d = int(low.size());
    return {kind::hybrid, 0, {d}, std::move(low), std::move(high), std::move(nvec)};
  }
  // Number of scalars an element of this space holds (1 for a discrete
  // action, one per component of a multi-discrete one, a box's values).
  int flat_size() const;
  // The number of choices of each categorical component: {n} for a
  // discrete space, nvec for a multi-discrete or hybrid one, none for a box.
  std::vector<int> categories() const;
  // Choices over all components: the length of an action mask row.
  int choice_count() const;
  // The values of a box or of a hybrid space's Box part (0 for the others):
  // they come after the categorical indices in an action.
  int continuous_size() const;
  // Floats of a policy's output for this space: each component's logits,
  // then a Gaussian's means.
  int policy_size() const { return choice_count() + continuous_size(); }
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
  // A Discrete or MultiDiscrete action space whose legal actions change from
  // state to state: the environment says which they are (env::action_mask),
  // and no other action is ever given to it.
  bool has_action_mask = false;
  // The key of a Dict observation that holds the action mask (PettingZoo's
  // "action_mask"): not among observation.leaves, not an input of the
  // network; empty where the mask, if any, comes from elsewhere.
  std::string observation_mask_key = {};
};

// Whether one policy could play both: the same observation and action
// spaces, masked alike.
inline bool same_spaces(const env_spec& a, const env_spec& b) {
  return a.observation.describe() == b.observation.describe() && a.action.describe() == b.action.describe() &&
         a.has_action_mask == b.has_action_mask;
}

struct step_result {
  double reward = 0.0;
  bool terminated = false;  // the MDP reached a terminal state
  bool truncated = false;   // the time limit cut the episode
};

// The other seat of a two-player game, as a viewer shows it beside the
// learning policy's own: who plays it and its last move this episode.
struct other_seat_view {
  int learner_seat = 0;               // the seat the learning policy plays (0 moves first)
  std::string who;                    // "itself", "snapshot 12", "policy yellow", "alphabeta:2", ...
  space action_space;                 // the other seat's actions (its agent's own)
  std::vector<float> action;          // its last move (action_space's floats); empty before its first
  std::vector<std::uint8_t> legal;    // the legal moves it chose among; empty: all, or no mask
  std::vector<float> policy;          // its policy head's outputs there; empty: not a policy's move
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
  // last reset or step left, as spec().action.choice_count() bytes into
  // `legal` (1: legal, 0: not; for a multi-discrete space each component's
  // choices in turn, at least one legal in each). Not called otherwise.
  virtual void action_mask(std::uint8_t* legal) const {}
  // This environment is one seat of a two-player game: the other seat, into
  // `view` (for a viewer). False for anything else.
  virtual bool other_seat(other_seat_view& view) const { return false; }
};

}  // namespace troupe::envs
