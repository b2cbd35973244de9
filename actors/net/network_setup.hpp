#pragma once
// Cluster mode's actor-system settings: CAF's network layer, and its OpenSSL
// module when TLS files are given. Must run before the actor system starts.
#include <chrono>

#include <caf/actor_system_config.hpp>

#include "run/run_config.hpp"

namespace troupe::actors {

// Every Troupe process on the network sends a BASP heartbeat this often.
constexpr std::chrono::seconds peer_heartbeat{5};

void configure_network(caf::actor_system_config& cfg, const run::tls_files& tls);

// "HOST:PORT" -> (host, port); throws std::invalid_argument naming `what`.
std::pair<std::string, std::uint16_t> parse_host_port(const std::string& text,
                                                      const std::string& what);

}  // namespace troupe::actors
