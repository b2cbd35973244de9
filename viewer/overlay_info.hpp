#pragma once
// What the viewer's panel shows beside a frame. A plain struct of ints,
// doubles, strings and vectors (no std::optional: CAF 0.17 cannot serialise
// it), so it can travel in a CAF message; `inspect` below is the overload CAF
// needs. A field is absent when it holds its default: a negative count, a NaN
// real, an empty vector or string. Absent fields are not drawn.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace troupe::viewer {

struct overlay_info {
  static constexpr double absent = std::numeric_limits<double>::quiet_NaN();

  std::string title;                    // e.g. the env id, or "agent 3 - CartPole-v1"
  std::int64_t episode = -1;            // the episode this frame belongs to
  double episode_return = absent;       // reward summed so far in this episode
  std::int64_t step = -1;               // step within the episode
  double steps_per_second = absent;     // env steps per second of the producer
  std::int64_t parameter_version = -1;  // the model version that chose the action
  // Discrete actions: the policy's probability of each action, drawn as bars.
  std::vector<float> action_probabilities;
  // Continuous actions: the action's values, drawn as numbers with centred
  // bars (a hybrid action: after its components' probabilities).
  std::vector<float> action_values;
  // Optional labels of the actions (probabilities), then of the action
  // dimensions (values).
  std::vector<std::string> action_names;
  // Indices of the actions taken (highlighted): one, or one per component
  // of a MultiDiscrete action (into its components' probabilities in turn).
  std::vector<std::int32_t> chosen_actions;
  // Discrete actions under an action mask: 1 where an action is legal, 0
  // where it is masked (drawn grey); empty when every action is legal.
  std::vector<std::uint8_t> legal_actions;
  // A two-player game: the seat the policy plays ("first", "second"), who
  // plays the other, and the other seat's last move beside the policy's own
  // (its probabilities when a policy made it; the move; its legal moves).
  std::string seat;
  std::string other_player;
  std::vector<float> other_probabilities;
  std::vector<std::int32_t> other_chosen;
  std::vector<std::uint8_t> other_legal;

  static bool present(double v) { return !std::isnan(v); }
  static bool present(std::int64_t v) { return v >= 0; }
};

// CAF 0.17 packs reals by hand (caf/detail/ieee_754.hpp): a NaN arrives as
// garbage, and packing an infinity never ends. So an overlay's reals travel
// finite: which doubles are present goes in a bit mask, and non-finite values
// are clamped (NaN to 0) on the way out.
namespace overlay_wire {
inline double finite(double v) {
  if (std::isnan(v)) return 0.0;
  return std::fmax(-std::numeric_limits<double>::max(),
                   std::fmin(v, std::numeric_limits<double>::max()));
}
inline std::vector<float> finite(const std::vector<float>& values) {
  std::vector<float> out(values);
  for (float& v : out)
    v = std::isnan(v) ? 0.f
                      : std::fmax(-std::numeric_limits<float>::max(),
                                  std::fmin(v, std::numeric_limits<float>::max()));
  return out;
}
constexpr std::uint8_t has_return = 1, has_rate = 2;
}  // namespace overlay_wire

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, overlay_info& x) {
  namespace w = overlay_wire;
  if constexpr (Inspector::reads_state) {  // saving or printing: a finite copy
    const std::uint8_t present =
        (overlay_info::present(x.episode_return) ? w::has_return : 0) |
        (overlay_info::present(x.steps_per_second) ? w::has_rate : 0);
    double episode_return = w::finite(x.episode_return);
    double steps_per_second = w::finite(x.steps_per_second);
    std::vector<float> probabilities = w::finite(x.action_probabilities);
    std::vector<float> values = w::finite(x.action_values);
    std::vector<float> other_probabilities = w::finite(x.other_probabilities);
    return f(x.title, x.episode, present, episode_return, x.step, steps_per_second,
             x.parameter_version, probabilities, values, x.action_names, x.chosen_actions,
             x.legal_actions, x.seat, x.other_player, other_probabilities, x.other_chosen, x.other_legal);
  } else {  // loading
    std::uint8_t present = 0;
    auto result = f(x.title, x.episode, present, x.episode_return, x.step, x.steps_per_second,
                    x.parameter_version, x.action_probabilities, x.action_values,
                    x.action_names, x.chosen_actions, x.legal_actions, x.seat, x.other_player,
                    x.other_probabilities, x.other_chosen, x.other_legal);
    if ((present & w::has_return) == 0) x.episode_return = overlay_info::absent;
    if ((present & w::has_rate) == 0) x.steps_per_second = overlay_info::absent;
    return result;
  }
}

}  // namespace troupe::viewer
