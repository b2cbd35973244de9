#pragma once
// How an actor asks the model-owner for actions, whichever way reaches it:
// through the owner's lane when the owner is in this process
// (actors/predict_lane.hpp), else by a request message (a cluster worker's
// agents, whose requests the gateway relays). A caller fills request(),
// calls ask() and takes the reply in its callback; only when the reply comes
// differs: through the lane before ask() returns, by message later, in the
// caller's behaviour.
#include <chrono>
#include <memory>
#include <utility>

#include <caf/all.hpp>

#include "actors/messages/predict.hpp"
#include "actors/predict_lane.hpp"

namespace troupe::actors {

// What answers predict requests: the model-owner, or the gateway for it.
using predict_service = caf::typed_actor<caf::replies_to<predict_request>::with<predict_reply>>;

class predict_client {
 public:
  predict_client() = default;
  // `lane`: the owner's lane, or null to ask `owner` by messages.
  predict_client(predict_service owner, std::shared_ptr<predict_lane> lane)
      : owner_(std::move(owner)), lane_(std::move(lane)) {}

  // What the next ask() sends; its buffers are reused from ask to ask.
  predict_request& request() { return slot_->request; }

  // Asks for request()'s actions from the actor `self`; exactly one of
  // answered(const predict_reply&) and failed(const caf::error&) runs.
  // Returns true when it ran before ask() returned (through the lane: this
  // thread waited for the owner), false when it runs later, as `self`
  // handles the reply message.
  template <class Self, class Answered, class Failed>
  bool ask(Self* self, Answered answered, Failed failed) {
    if (lane_) {
      ask_through_lane(answered, failed);
      return true;
    }
    self->request(owner_, caf::infinite, slot_->request)
        .then([answered](const predict_reply& reply) mutable { answered(reply); },
              [failed](caf::error& err) mutable { failed(static_cast<const caf::error&>(err)); });
    return false;
  }

  // Through the lane, ask() in two halves: post() submits request() and
  // returns at once (false, doing nothing, without a lane); collect() then
  // waits for the answer and runs one of the two callbacks. One thread
  // can so have requests waiting at several owners at once.
  bool post() {
    if (!lane_) return false;
    lane_->post(*slot_);
    return true;
  }
  template <class Answered, class Failed>
  void collect(Answered answered, Failed failed) {
    if (predict_lane::await(*slot_))
      answered(static_cast<const predict_reply&>(slot_->reply));
    else
      failed(static_cast<const caf::error&>(slot_->error));
  }

  // The same for a blocking actor (a scoped_actor), which waits for a
  // message's reply too, at most `timeout`: done when it returns.
  template <class Answered, class Failed>
  void ask_and_wait(caf::scoped_actor& self, std::chrono::milliseconds timeout, Answered answered,
                    Failed failed) {
    if (lane_) {
      ask_through_lane(answered, failed);
      return;
    }
    self->request(owner_, timeout, slot_->request)
        .receive([&](const predict_reply& reply) { answered(reply); },
                 [&](caf::error& err) { failed(static_cast<const caf::error&>(err)); });
  }

 private:
  template <class Answered, class Failed>
  void ask_through_lane(Answered& answered, Failed& failed) {
    if (lane_->ask(*slot_))
      answered(static_cast<const predict_reply&>(slot_->reply));
    else
      failed(static_cast<const caf::error&>(slot_->error));
  }

  predict_service owner_;
  std::shared_ptr<predict_lane> lane_;
  // The request, and through the lane the reply (on the heap: a slot does
  // not move, a client does).
  std::unique_ptr<predict_slot> slot_ = std::make_unique<predict_slot>();
};

}  // namespace troupe::actors
