#include "actors/frames/frame_subscriber.hpp"

#include <chrono>

namespace troupe::actors {

namespace {

using clock_type = std::chrono::steady_clock;

// A hub answers as soon as the agent's next step renders; a request that takes
// longer than this is asked again (the agent may be waiting for the learner).
constexpr auto request_timeout = std::chrono::seconds(5);
constexpr auto paused_poll = std::chrono::milliseconds(20);

struct subscriber_state {
  frame_source hub;
  frame_subscriber_config config;
  clock_type::time_point last_ask{};
  bool ended = false;
  static inline const char* name = "frame_subscriber";
};

using subscriber_pointer = caf::stateful_actor<subscriber_state>*;

void end(subscriber_pointer self, const std::string& why) {
  auto& st = self->state;
  if (st.ended) return;
  st.ended = true;
  st.config.on_end(why);
  self->quit();
}

void ask(subscriber_pointer self) {
  auto& st = self->state;
  if (st.ended) return;
  if (!st.config.wants_frame()) {
    self->delayed_send(self, paused_poll, caf::tick_atom_v);
    return;
  }
  const auto now = clock_type::now();
  const double fps = st.config.frames_per_second();
  if (fps > 0) {
    const auto due = st.last_ask + std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(1.0 / fps));
    if (now < due) {
      self->delayed_send(self, due - now, caf::tick_atom_v);
      return;
    }
  }
  st.last_ask = now;
  const auto agent = static_cast<std::int32_t>(st.config.selected_agent());
  self->request(st.hub, request_timeout, next_frame_atom_v, agent)
      .then(
          [=](env_frame& frame) {
            const std::string problem = frame_problem(frame);
            if (problem.empty())
              self->state.config.on_frame(std::move(frame));
            else
              self->state.config.on_rejected(problem);
            ask(self);
          },
          [=](caf::error& err) {
            if (err == caf::sec::request_timeout)
              ask(self);
            else
              end(self, caf::to_string(err));
          });
}

caf::behavior subscriber(subscriber_pointer self, frame_source hub,
                         frame_subscriber_config config) {
  self->state.hub = hub;
  self->state.config = std::move(config);
  // A hub that quits, or a connection that drops, ends the stream at once.
  self->monitor(hub);
  self->set_down_handler([=](caf::down_msg& down) {
    // The hub's owner stops it when the run ends; anything else is a lost link.
    end(self, down.reason == caf::exit_reason::user_shutdown
                  ? std::string("the frame stream ended: the run is over")
                  : "the frame stream ended (" + caf::to_string(down.reason) + ")");
  });
  ask(self);
  return {
      [=](caf::tick_atom) { ask(self); },
  };
}

}  // namespace

caf::actor spawn_frame_subscriber(caf::actor_system& sys, frame_source hub,
                                  frame_subscriber_config config) {
  return sys.spawn(subscriber, std::move(hub), std::move(config));
}

std::string frame_problem(const env_frame& frame) {
  const auto& image = frame.image;
  const auto& info = frame.info;
  if (frame.agent_count < 1 || frame.agent_count > 65536 ||
      frame.agent_id >= std::uint32_t(frame.agent_count))
    return "agent " + std::to_string(frame.agent_id) + " of " + std::to_string(frame.agent_count) +
           " does not exist";
  if (image.width < 1 || image.height < 1 || image.width > max_frame_side ||
      image.height > max_frame_side)
    return "a frame of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
           " pixels (each side must be 1 to " + std::to_string(max_frame_side) + ")";
  const size_t expected = size_t(image.width) * size_t(image.height) * 3;
  if (image.pixels.size() != expected)
    return "a frame of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
           " pixels carries " + std::to_string(image.pixels.size()) + " bytes, not " +
           std::to_string(image.width) + "*" + std::to_string(image.height) + "*3 = " +
           std::to_string(expected);
  if (info.action_probabilities.size() > max_frame_actions ||
      info.action_values.size() > max_frame_actions ||
      info.action_names.size() > max_frame_actions || info.other_probabilities.size() > max_frame_actions ||
      info.other_chosen.size() > max_frame_actions || info.other_legal.size() > max_frame_actions)
    return "a frame with more than " + std::to_string(max_frame_actions) + " action entries";
  constexpr size_t max_text = 256;
  if (info.title.size() > max_text) return "a frame title longer than 256 characters";
  if (info.seat.size() > max_text || info.other_player.size() > max_text)
    return "a frame's seat or other player longer than 256 characters";
  for (const auto& name : info.action_names)
    if (name.size() > max_text) return "an action name longer than 256 characters";
  return "";
}

}  // namespace troupe::actors
