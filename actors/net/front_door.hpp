#pragma once
// The front door of a port Troupe listens on (the cluster port of `troupe
// serve`, the frame stream of `--view-port`): a CAF broker that accepts the
// world's connections, keeps each within limits, and relays its bytes to the
// port where CAF's middleman publishes the actor, on 127.0.0.1.
//
// Why: CAF 0.17's middleman has no limit of its own on connections, on how
// long a connection may stay silent before its handshake (a silent one is
// never timed out: middleman.connection-timeout only covers connections that
// sent something), nor on message sizes (a BASP header alone makes it
// allocate and zero up to 4 GiB), and nothing in it can be configured to
// refuse routed messages (which may name any node as their sender's). The
// door bounds all of these (actors/net/basp_frames.hpp for the frames):
//   - at most max_connections at once, max_connections_per_host from one
//     address; more are closed at once;
//   - a connection must complete its first frame (the BASP handshake) within
//     handshake_timeout_s, and is closed after idle_timeout_s without a byte
//     (Troupe's peers send BASP heartbeats; see network_setup.hpp), or when a
//     frame it began stays incomplete that long;
//   - frames over max_message_bytes, routed messages and unknown operations
//     close the connection before CAF reads them; a frame reaches CAF only
//     once complete, so a partial frame costs only the bytes it sent.
// Over TLS the bytes are ciphertext: the door then bounds connections and
// timeouts (without frames, the handshake rule becomes "a first byte"), and
// TLS itself keeps peers without a certificate from the CA out.
#include <cstdint>
#include <string>

#include <caf/all.hpp>
#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>

#include "actors/messages/network.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

struct front_door {
  std::uint16_t port = 0;  // where the world connects
  caf::actor broker;       // stop_atom: answers door_counts (actors/messages/network.hpp) and closes
};

// Listens on host:port (0: a free port) and relays to 127.0.0.1:upstream_port.
// `frames`: parse BASP frames (false over TLS). `what` names the port in logs.
// The door closes when `published` (the actor behind it) ends, or when told.
caf::expected<front_door> open_front_door(caf::actor_system& sys, const std::string& host,
                                          std::uint16_t port, std::uint16_t upstream_port,
                                          const run::connection_limits& limits, bool frames,
                                          const std::string& what, caf::actor published);

// Publishes `whom` on 127.0.0.1 (over TLS when `tls` is enabled), behind a
// front door on host:port.
template <class Handle>
caf::expected<front_door> publish_behind_door(caf::actor_system& sys, const Handle& whom,
                                              const std::string& host, std::uint16_t port,
                                              const run::tls_files& tls,
                                              const run::connection_limits& limits,
                                              const std::string& what) {
  auto inner = tls.enabled() ? caf::openssl::publish(whom, 0, "127.0.0.1", true)
                             : sys.middleman().publish(whom, 0, "127.0.0.1", true);
  if (!inner) return inner.error();
  return open_front_door(sys, host, port, *inner, limits, !tls.enabled(), what,
                         caf::actor_cast<caf::actor>(whom));
}

}  // namespace troupe::actors
