#pragma once
// What the network can and cannot do to the actors it can reach.
//
// Over BASP (CAF's network layer), a connected peer can message any actor of
// this process whose handle has ever been serialized (CAF then keeps it in
// the actor registry, by id: ids are small consecutive numbers, so such an
// actor can be found by counting). Troupe lets the handles of only a few
// actors leave the process: the cluster gateway, the frame stream's gate and
// the relays through which viewers watch workers' agents. Every other actor
// (model-owners, learners, metrics, the frame hub, the coordinator, local
// agents) is unreachable from the network: CAF has nothing to deliver to.
//
// A reachable actor must also survive what BASP lets a peer send besides its
// protocol. CAF 0.17 delivers to it, from any peer:
//   - exit_msg: with exit_reason::kill it ends the actor whatever its exit
//     handler says; a link request from a peer ("link_atom") links the
//     actor to the peer's proxy, which sends one when the peer disconnects;
//   - down_msg, error and other system messages, which end an actor with
//     CAF's default handlers;
//   - any message type at all, and a forged sender: a routed message may
//     name this node and any actor id in the registry as its source (the
//     receiver then sees that local actor as the sender), and a client
//     handshake may claim this node's id, making a proxy whose node() is
//     ours.
// So a network-facing actor's mailbox admits, from a sender it cannot trust,
// only its public protocol, responses to its own requests, and down notices
// (of actors it monitors: sent by the actor that went down); everything else is dropped (and
// answered with an error when it was a request) before it is queued, and
// counted. Its control messages (stop, naming agents) it accepts only from
// trusted senders (below).
#include <atomic>
#include <cstdint>

#include <caf/actor_proxy.hpp>
#include <caf/actor_registry.hpp>
#include <caf/actor_system.hpp>
#include <caf/system_messages.hpp>
#include <caf/mailbox_element.hpp>

#include "actors/errors.hpp"

namespace troupe::actors {

// An actor of this process whose handle never left it: not anonymous, not a
// proxy (whatever node it claims), and not in the registry (so no peer can
// name it as the sender of a routed message).
inline bool trusted_sender(const caf::strong_actor_ptr& sender) {
  if (!sender) return false;
  auto* actor = caf::actor_cast<caf::abstract_actor*>(sender);
  if (dynamic_cast<caf::actor_proxy*>(actor) != nullptr) return false;
  return sender->home_system->registry().get(sender->id()) == nullptr;
}

// A message from this process: not anonymous and not through a proxy. What
// actors that the network cannot reach check (model-owner, learner,
// metrics): only a leaked handle could bring them anything else.
inline bool sender_in_this_process(const caf::strong_actor_ptr& sender) {
  return sender && dynamic_cast<caf::actor_proxy*>(caf::actor_cast<caf::abstract_actor*>(sender)) ==
                       nullptr;
}

namespace detail {

template <class... Inputs, class Output>
bool matches(const caf::type_erased_tuple& content,
             caf::typed_mpi<caf::detail::type_list<Inputs...>, Output>*) {
  return content.match_elements<Inputs...>();
}

template <class... Signatures>
bool in_protocol(const caf::type_erased_tuple& content, caf::detail::type_list<Signatures...>) {
  return (matches(content, static_cast<Signatures*>(nullptr)) || ...);
}

}  // namespace detail

// `Base`: the actor's implementation type (a stateful typed actor);
// `Protocol`: the typed-actor handle whose messages peers may send.
template <class Base, class Protocol>
class network_facing : public Base {
 public:
  using Base::Base;

  void enqueue(caf::mailbox_element_ptr what, caf::execution_unit* host) override {
    if (what && !admits(*what)) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      if (what->mid.is_request() && what->sender)
        what->sender->enqueue(
            caf::make_mailbox_element(nullptr, what->mid.response_id(), {},
                                      make_error(errc::not_local, "not accepted from the network")),
            host);
      return;
    }
    Base::enqueue(std::move(what), host);
  }

  // Messages dropped at the door so far (any thread may ask).
  std::int64_t dropped_at_door() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  static bool admits(const caf::mailbox_element& x) {
    if (trusted_sender(x.sender)) return true;
    if (x.mid.is_response()) return true;  // matched to a request of its own, or dropped
    const auto& content = x.content();
    // A down notice comes from the actor that went down, about itself (a
    // peer may send one only about an actor of its own, which is harmless).
    if (x.sender && content.match_elements<caf::down_msg>())
      return content.get_as<caf::down_msg>(0).source ==
             caf::actor_cast<caf::actor_addr>(x.sender);
    return detail::in_protocol(content, typename Protocol::signatures{});
  }

  std::atomic<std::int64_t> dropped_{0};
};

}  // namespace troupe::actors
