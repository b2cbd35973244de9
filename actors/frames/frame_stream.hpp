#pragma once
// A training run's frames over TCP, through CAF's network layer (the
// middleman), not sockets of our own: the training side publishes its frame
// hub on a port; a viewer in another process connects and pulls frames from
// it exactly as a viewer in the same process does (actors/frame_hub.hpp), so
// frames are dropped, never queued, for a slow viewer, and viewers may come
// and go while training runs. Any process that owns a frame hub (train, and
// the cluster's learner) publishes it the same way.
//
// Both sides' actor systems must load the network layer before they start
// (actors/network_setup.hpp: configure_network). Whoever may reach the port
// may ask the hub for frames, so it binds to the loopback address unless told
// otherwise; only actors of its own process may name agents to it.
#include <cstdint>
#include <string>

#include "actors/frames/frame_hub.hpp"

namespace troupe::actors {

// Publishes `hub` on bind_address:port (port 0: a free port the system
// picks). Returns the port, or why it could not (taken, not permitted).
caf::expected<std::uint16_t> publish_frame_stream(caf::actor_system& sys, frame_hub_actor hub,
                                                  std::uint16_t port,
                                                  const std::string& bind_address = "127.0.0.1");

// The hub published at host:port, or why it cannot be reached.
caf::expected<frame_hub_actor> connect_frame_stream(caf::actor_system& sys,
                                                    const std::string& host, std::uint16_t port);

}  // namespace troupe::actors
