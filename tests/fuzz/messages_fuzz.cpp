// What a peer can put in a message: the cluster's data messages and the
// frame stream's frames, decoded from bytes exactly as CAF decodes them off
// the network, then checked as the gateway, the render relays and the
// viewers check them. Decoding must never crash nor allocate more than what
// arrived could justify (libFuzzer's malloc limit catches that); whatever a
// check accepts must be safe for the code behind it (the learning targets
// of a rollout, the viewer's picture of a frame) and must encode back to the
// same bytes. (Only what is accepted: CAF 0.17 decodes some bit patterns to
// infinities, and encoding an infinity never ends; the checks refuse them.)
//
// Input: a byte choosing the message, five bytes choosing the run's shapes
// (the fourth also the actions an action mask covers), then the message as
// CAF's binary serializer writes it.
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>
#include <optional>

#include "actors/cluster/message_checks.hpp"
#include "actors/frames/frame_subscriber.hpp"
#include "algo/targets.hpp"
#include "tests/fuzz/fuzz_targets.hpp"
#include "viewer/overlay_panel.hpp"

namespace troupe::fuzz {

namespace {

using bytes = std::vector<char>;

template <class T>
bool decode(const char* data, size_t size, T& out) {
  caf::binary_deserializer source(nullptr, data, size);
  return !source(out);
}

template <class T>
bytes encode(T& message) {
  bytes out;
  caf::binary_serializer sink(nullptr, out);
  if (auto err = sink(message)) throw fuzz_finding("a decoded message does not encode again");
  return out;
}

// Decoded, encoded and decoded again: the same bytes both times.
template <class T>
void check_round_trip(T& message) {
  bytes first = encode(message);
  T again;
  if (!decode(first.data(), first.size(), again))
    throw fuzz_finding("a message's own encoding does not decode");
  if (encode(again) != first) throw fuzz_finding("a message changed on a round trip");
}

// The learner's arithmetic over an accepted rollout, with every correction.
void learn_from(const algo::rollout& r) {
  const size_t n = size_t(r.samples());
  const std::vector<float> values(n, 0.5f), next_values(n, 0.25f), logp(n, -0.7f);
  for (int rule = 0; rule < 3; ++rule) {
    algo::algo_config config;
    if (rule == 1) config.gae_lambda = 0.95;
    if (rule == 2) config.correction = algo::correction_kind::vtrace;
    const algo::learning_targets t = algo::compute_targets(config, r, values, next_values, logp);
    if (t.returns.size() != n || t.advantages.size() != n)
      throw fuzz_finding("targets of the wrong size for an accepted rollout");
  }
}

// Decodes a T and checks it as the receiving side does (`problem`: the
// reason it is refused, empty when accepted); an accepted one must survive
// a round trip. Null when refused.
template <class T, class Problem>
std::optional<T> accepted(const char* body, size_t length, Problem problem) {
  T message;
  if (!decode(body, length, message) || !problem(message).empty()) return std::nullopt;
  check_round_trip(message);
  return message;
}

}  // namespace

bool messages_input(const std::uint8_t* data, size_t size) {
  if (size < 6) return false;
  actors::run_shapes shapes;
  shapes.n_steps = 1 + data[1] % 4;
  shapes.rows_per_agent = 1 + data[2] % 4;
  shapes.obs_size = 1 + data[3] % 8;
  shapes.action_width = 1 + data[4] % 3;
  shapes.mask_size = (data[4] / 3) % 6;
  shapes.state_size = data[5] % 5;
  shapes.game_agents = 2 + (data[5] / 5) % 3;
  shapes.movers_per_game = 1 + (data[5] / 15) % 2;
  const char* body = reinterpret_cast<const char*>(data) + 6;
  const size_t length = size - 6;
  switch (data[0] % 7) {
    case 0:
      return accepted<actors::predict_request>(
                 body, length, [&](const auto& m) { return actors::predict_request_problem(shapes, m); })
          .has_value();
    case 1: {
      const auto rollout = accepted<algo::rollout>(
          body, length, [&](const auto& m) { return actors::rollout_problem(shapes, m); });
      if (rollout) learn_from(*rollout);
      return rollout.has_value();
    }
    case 2:
      return accepted<actors::episode_report>(body, length, actors::episode_report_problem).has_value();
    case 3:
      return accepted<actors::join_request>(body, length, [](const auto&) { return std::string(); })
          .has_value();
    case 4:
      return accepted<actors::predict_reply>(body, length, actors::predict_reply_problem).has_value();
    case 5: {
      actors::env_frame frame;
      if (!decode(body, length, frame)) return false;
      check_round_trip(frame);  // its reals travel clamped (viewer/overlay_info.hpp)
      if (!actors::frame_problem(frame).empty()) return false;
      const envs::rgb_frame shown = viewer::compose(frame.image, frame.info, viewer::viewer_status{});
      if (shown.pixels.size() != size_t(shown.width) * size_t(shown.height) * 3)
        throw fuzz_finding("the viewer composed a picture of the wrong size");
      return true;
    }
    case 6: {
      // What an opponent host reads of an accepted request must be there.
      const auto request = accepted<actors::opponent_request>(
          body, length, [&](const auto& m) { return actors::opponent_request_problem(shapes, m); });
      if (!request) return false;
      for (std::int32_t game : request->games)
        if (game < 0 || game >= shapes.rows_per_agent) throw fuzz_finding("an accepted move for a game the agent has not");
      for (std::int32_t agent : request->agents)
        if (agent < 0 || agent >= shapes.game_agents) throw fuzz_finding("an accepted move for an agent the game has not");
      if (request->observations.size() != request->games.size() * size_t(shapes.obs_size) ||
          request->agents.size() != request->games.size() ||
          request->event_ended.size() != request->event_games.size() ||
          request->event_seeds.size() != request->event_games.size() ||
          request->event_returns.size() != request->event_games.size())
        throw fuzz_finding("an accepted opponent request of uneven parts");
      return true;
    }
  }
  return false;
}

}  // namespace troupe::fuzz
