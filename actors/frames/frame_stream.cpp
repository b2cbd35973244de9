#include "actors/frames/frame_stream.hpp"

#include <caf/io/all.hpp>

namespace troupe::actors {

caf::expected<std::uint16_t> publish_frame_stream(caf::actor_system& sys, frame_hub_actor hub,
                                                  std::uint16_t port,
                                                  const std::string& bind_address) {
  // reuse: a port whose last connections linger in TIME_WAIT can be taken again.
  return sys.middleman().publish(std::move(hub), port, bind_address.c_str(), true);
}

caf::expected<frame_hub_actor> connect_frame_stream(caf::actor_system& sys,
                                                    const std::string& host, std::uint16_t port) {
  return sys.middleman().remote_actor<frame_hub_actor>(host, port);
}

}  // namespace troupe::actors
