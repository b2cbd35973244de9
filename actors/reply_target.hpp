#pragma once
// Where the answer to one predict request goes, however the request came: a
// request that came as a message is answered through its response promise,
// one that came through the owner's lane (actors/predict_lane.hpp) in its
// slot. The model-owner keeps one per queued request and builds the reply
// in it; the reply courier (actors/reply_courier.hpp) sends it.
#include <utility>

#include <caf/all.hpp>

#include "actors/messages/predict.hpp"
#include "actors/predict_lane.hpp"

namespace troupe::actors {

struct reply_target {
  caf::typed_response_promise<predict_reply> promise;  // a message's
  predict_slot* slot = nullptr;                         // or the lane's
  predict_reply message;  // a message's reply is built here; a slot's, in the slot

  static reply_target to_promise(caf::typed_response_promise<predict_reply> p) {
    reply_target t;
    t.promise = std::move(p);
    return t;
  }
  static reply_target to_slot(predict_slot* s) {
    reply_target t;
    t.slot = s;
    return t;
  }

  // Where to build the reply: the slot's own buffers, whose sizes repeat
  // from request to request, or `message`.
  predict_reply& reply() { return slot ? slot->reply : message; }
  // Sends the built reply, from the owner's own thread.
  void deliver() {
    if (slot)
      slot->answer();
    else
      promise.deliver(std::move(message));
  }
  // No reply: the requester learns why.
  void fail(const caf::error& why) {
    if (slot)
      slot->fail(why);
    else
      promise.deliver(why);
  }
};

}  // namespace troupe::actors
