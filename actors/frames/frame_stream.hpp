#pragma once
// A training run's frames over TCP, through CAF's network layer (the
// middleman), not sockets of our own. The run publishes a gate in front of
// its frame hub: a viewer in another process connects, presents the
// stream's token, and then pulls frames through the gate exactly as a viewer
// in the same process pulls them from the hub (actors/frames/frame_hub.hpp), so
// frames are dropped, never queued, for a slow viewer, and viewers may come
// and go while training runs. Any process that owns a frame hub (train, and
// the cluster's learner) publishes it the same way.
//
// The gate has the cluster's protection: a token (compared in constant
// time; a node that has not presented it gets no frame), CAF's TLS module
// when the run has TLS files, and the defences of every network-facing
// actor (actors/net/network_facing.hpp). The hub itself never leaves the
// process: the gate relays each request to it and delivers the answer.
//
// Both sides' actor systems must load the network layer (and TLS, when
// used) before they start (actors/net/network_setup.hpp).
#include <chrono>
#include <cstdint>
#include <string>

#include "actors/frames/frame_hub.hpp"
#include "actors/messages/network.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

// What a gate answers over the network. watch_atom with the stream's token:
// the asking node may watch (the answer is the stream protocol's version);
// a wrong or missing token: errc::refused. Then next_frame as from a hub.
using frame_stream_actor =
    frame_source::extend<caf::replies_to<watch_atom, std::string>::with<std::int32_t>>;

constexpr std::int32_t frame_stream_protocol = 1;

struct frame_stream_options {
  std::uint16_t port = 0;  // 0: a free port the system picks
  std::string bind_address = "127.0.0.1";
  std::string token;       // what viewers must present; never empty
  run::tls_files tls;           // enabled: over TLS (the system loaded CAF's module)
  run::connection_limits limits;  // what its front door allows (actors/net/front_door.hpp)
};

// The owner's handle on a published stream: stop_atom (from an actor of
// this process only) answers what the gate saw; the gate itself ends with
// its hub.
using frame_stream_control = caf::typed_actor<caf::replies_to<stop_atom>::with<stream_final>>;

struct published_frame_stream {
  std::uint16_t port = 0;
  frame_stream_control gate;
  caf::actor door;  // stop_atom: its door_counts, then it closes
};

// Spawns the gate in front of `hub` and publishes it. Returns the port and
// the gate, or why it could not (taken, not permitted).
caf::expected<published_frame_stream> publish_frame_stream(caf::actor_system& sys,
                                                           frame_hub_actor hub,
                                                           const frame_stream_options& options);

// Connects to the gate at host:port (over TLS when `tls` is enabled) and
// presents `token`. The source to pull frames from, or why not: the
// connection failed, or the gate said errc::refused (a wrong token) or did
// not answer within `timeout`.
caf::expected<frame_source> connect_frame_stream(
    caf::actor_system& sys, const std::string& host, std::uint16_t port, const std::string& token,
    const run::tls_files& tls = {}, std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace troupe::actors
