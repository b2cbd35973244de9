#include "actors/frames/frame_stream.hpp"

#include <cmath>
#include <deque>
#include <limits>
#include <iostream>
#include <set>

#include "actors/net/front_door.hpp"
#include "actors/net/token.hpp"
#include "actors/errors.hpp"
#include "actors/net/flood_log.hpp"
#include "actors/net/network_facing.hpp"

namespace troupe::actors {

namespace {

// Viewer nodes remembered as admitted; the oldest is forgotten beyond this
// (it presents the token again when it reconnects).
constexpr size_t max_admitted_nodes = 1024;

struct gate_state {
  frame_hub_actor hub;
  std::string token;
  std::set<caf::node_id> admitted;
  std::deque<caf::node_id> admitted_order;
  stream_final totals;
  static inline const char* name = "frame_stream_gate";
};

// Its owner's stop_atom is no part of what peers may send.
using gate_actor = frame_stream_actor::extend_with<frame_stream_control>;
using gate_impl =
    network_facing<caf::stateful_actor<gate_state, gate_actor::base>, frame_stream_actor>;

// CAF 0.17 cannot send an infinity (its serializer halves it forever,
// hanging this node's network thread): the panel's numbers leave the process
// finite (the largest value of their type instead).
template <class T>
void clamp_infinite(T& x) {
  if (std::isinf(x)) x = std::copysign(std::numeric_limits<T>::max(), x);
}

void without_infinities(env_frame& frame) {
  auto& info = frame.info;
  clamp_infinite(info.episode_return);
  clamp_infinite(info.steps_per_second);
  for (float& p : info.action_probabilities) clamp_infinite(p);
  for (float& v : info.action_values) clamp_infinite(v);
}

// Viewers of this process ask the hub itself; over the network, a node
// must have presented the token.
bool may_watch(gate_impl* self) {
  const auto& sender = self->current_sender();
  if (!sender) return false;
  if (trusted_sender(sender)) return true;
  return self->state.admitted.count(sender->node()) > 0;
}

gate_actor::behavior_type gate(gate_impl* self, frame_hub_actor hub, std::string token) {
  self->state.hub = std::move(hub);
  self->state.token = std::move(token);
  // The stream ends with its hub (the run's end).
  self->monitor(self->state.hub);
  self->set_down_handler([=](caf::down_msg& down) {
    if (down.source == self->state.hub.address()) self->quit(down.reason);
  });
  return {
      [=](watch_atom, const std::string& presented) -> caf::result<std::int32_t> {
        auto& st = self->state;
        const auto& sender = self->current_sender();
        if (!sender) return make_error(errc::refused, "an anonymous viewer");
        if (!tokens_match(presented, st.token)) {
          const auto n = ++st.totals.viewers_refused;
          if (worth_logging(n))
            std::cerr << "troupe: refused a viewer from " << caf::to_string(sender->node())
                      << ": wrong or missing view token (" << n << " refused so far)" << std::endl;
          return make_error(errc::refused, "wrong or missing view token");
        }
        if (st.admitted.insert(sender->node()).second) {
          ++st.totals.viewers_admitted;
          st.admitted_order.push_back(sender->node());
          if (st.admitted_order.size() > max_admitted_nodes) {
            st.admitted.erase(st.admitted_order.front());
            st.admitted_order.pop_front();
          }
        }
        return frame_stream_protocol;
      },
      [=](next_frame_atom, std::int32_t agent) -> caf::result<env_frame> {
        if (!may_watch(self)) {
          ++self->state.totals.requests_refused;
          return make_error(errc::not_joined, "present the stream's token first");
        }
        // Relayed, not delegated: the hub answers the gate, so its handle
        // never reaches another node.
        auto promise = self->make_response_promise<env_frame>();
        self->request(self->state.hub, caf::infinite, next_frame_atom_v, agent)
            .then([promise](env_frame& frame) mutable {
                    without_infinities(frame);
                    promise.deliver(std::move(frame));
                  },
                  [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
      [=](stop_atom) -> caf::result<stream_final> {
        if (!trusted_sender(self->current_sender()))
          return make_error(errc::not_local, "stop from outside this process");
        self->state.totals.dropped_at_door = self->dropped_at_door();
        return self->state.totals;
      },
  };
}

}  // namespace

caf::expected<published_frame_stream> publish_frame_stream(caf::actor_system& sys,
                                                           frame_hub_actor hub,
                                                           const frame_stream_options& o) {
  if (o.token.empty()) return make_error(errc::refused, "a frame stream needs a token");
  gate_actor stream = sys.spawn(gate, std::move(hub), o.token);
  // Peers get the gate's public protocol only.
  const frame_stream_actor published = stream;
  auto door = publish_behind_door(sys, published, o.bind_address, o.port, o.tls, o.limits,
                                  "frame stream");
  if (!door) {
    caf::scoped_actor self{sys};
    self->send_exit(stream, caf::exit_reason::user_shutdown);
    return door.error();
  }
  return published_frame_stream{door->port, stream, door->broker};
}

caf::expected<frame_source> connect_frame_stream(caf::actor_system& sys, const std::string& host,
                                                 std::uint16_t port, const std::string& token,
                                                 const run::tls_files& tls,
                                                 std::chrono::milliseconds timeout) {
  auto gate = tls.enabled() ? caf::openssl::remote_actor<frame_stream_actor>(sys, host, port)
                            : sys.middleman().remote_actor<frame_stream_actor>(host, port);
  if (!gate) return gate.error();
  caf::scoped_actor self{sys};
  caf::error refusal;
  self->request(*gate, timeout, watch_atom_v, token)
      .receive([](std::int32_t) {}, [&](caf::error& err) { refusal = std::move(err); });
  if (refusal) return refusal;
  return frame_source{*gate};
}

}  // namespace troupe::actors
