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
  // Continuous actions: the action's values, drawn as numbers with centred bars.
  std::vector<float> action_values;
  // Optional labels of the actions (probabilities) or action dimensions (values).
  std::vector<std::string> action_names;
  // Index of the action taken (highlighted); -1 when absent.
  std::int32_t chosen_action = -1;

  static bool present(double v) { return !std::isnan(v); }
  static bool present(std::int64_t v) { return v >= 0; }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, overlay_info& x) {
  return f(x.title, x.episode, x.episode_return, x.step, x.steps_per_second,
           x.parameter_version, x.action_probabilities, x.action_values, x.action_names,
           x.chosen_action);
}

}  // namespace troupe::viewer
