#pragma once
// The viewer's end of a frame stream: an actor that pulls frames from a frame
// hub, in this process or another (actors/frames/frame_hub.hpp, frame_stream.hpp),
// checks each and hands the good ones to a callback. One request is in flight
// at a time, at most frames_per_second() a second, none while wants_frame()
// is false, so a slow or paused viewer costs the training run nothing.
//
// The callbacks run on the subscriber's thread: they must be thread-safe
// (viewer_window::show() and its getters are).
#include <functional>
#include <string>

#include "actors/frames/frame_hub.hpp"

namespace troupe::actors {

struct frame_subscriber_config {
  std::function<bool()> wants_frame = [] { return true; };  // false: ask later
  std::function<int()> selected_agent = [] { return 0; };
  std::function<double()> frames_per_second = [] { return 30.0; };  // <= 0: no limit
  std::function<void(env_frame&&)> on_frame = [](env_frame&&) {};
  // A frame that failed frame_problem, and why; the stream goes on.
  std::function<void(const std::string&)> on_rejected = [](const std::string&) {};
  // The stream ended (the hub is gone or refused), and why; the actor quits.
  std::function<void(const std::string&)> on_end = [](const std::string&) {};
};

caf::actor spawn_frame_subscriber(caf::actor_system& sys, frame_source hub,
                                  frame_subscriber_config config);

// Why a frame cannot be shown, or "" when it can. Frames may come from
// another process, so their sizes are checked before anything draws them.
std::string frame_problem(const env_frame& frame);

// The largest frame side and the most action entries a viewer accepts.
constexpr int max_frame_side = 8192;
constexpr size_t max_frame_actions = 1024;

}  // namespace troupe::actors
