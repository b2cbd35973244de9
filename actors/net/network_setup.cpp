#include "actors/net/network_setup.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>

namespace troupe::actors {

void configure_network(caf::actor_system_config& cfg, const run::tls_files& tls) {
  cfg.load<caf::io::middleman>();
  // Heartbeats keep a quiet connection from looking silent to the front
  // door at the other end (cluster.idle_timeout_s).
  cfg.set("middleman.heartbeat-interval", caf::timespan{peer_heartbeat});
  if (!tls.enabled()) return;
  for (const auto& [what, path] : {std::pair{"certificate", tls.certificate},
                                   std::pair{"key", tls.key}, std::pair{"CA", tls.ca}})
    if (!path.empty() && !std::filesystem::is_regular_file(path))
      throw std::invalid_argument(std::string("TLS ") + what + " file not found: " + path);
  cfg.load<caf::openssl::manager>();
  cfg.openssl_certificate = tls.certificate;
  cfg.openssl_key = tls.key;
  cfg.openssl_cafile = tls.ca;
}

std::pair<std::string, std::uint16_t> parse_host_port(const std::string& text,
                                                      const std::string& what) {
  const auto colon = text.rfind(':');
  const auto bad = [&] {
    return std::invalid_argument(what + ": expected HOST:PORT (port 0-65535), got '" + text + "'");
  };
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) throw bad();
  const std::string port_text = text.substr(colon + 1);
  if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5)
    throw bad();
  const long port = std::stol(port_text);
  if (port > 65535) throw bad();
  return {text.substr(0, colon), static_cast<std::uint16_t>(port)};
}

}  // namespace troupe::actors
