#pragma once
// The model-owner's lane for the agents of its own process: a predict
// request and its reply pass through a slot the agent owns instead of two
// actor messages.
//
// Why: with one-row requests, what an agent pays per prediction is mostly
// not the forward pass but getting there and back. Through messages that is
// a mailbox element and a response promise each way, the owner's copy of
// the reply into a message, and the wake-up of the agent's thread through
// its mailbox's mutex and condition variable (issue #19, docs/benchmarks.md).
// Through the lane an agent writes its request into its slot, pushes the
// slot onto a lock-free list and sleeps on the slot's futex word; the owner
// takes the whole list at once, writes each reply into its slot (reusing the
// slot's buffers) and wakes the agent with one futex call. The owner is
// still an actor and learns of requests through its mailbox: the first
// request after the owner last looked sends it one lane_atom, later ones
// ride along for free, so a batch of 30 requests costs one message, not 60.
//
// The forward pass stays in the owner's message handler, so the owner's
// critical section and batching work as for messages; the two kinds of
// request share batches. Requests from outside the process (the cluster
// gateway's) keep coming as messages.
#include <atomic>
#include <cstdint>
#include <vector>

#include <caf/all.hpp>

#include "actors/messages/predict.hpp"

namespace troupe::actors {

// One agent's request and, once answered, its reply. Whoever asks through a
// lane waits until its slot is answered, so a slot is never destroyed or
// reused while a lane or an owner holds it.
class predict_slot {
 public:
  predict_request request;  // filled by the agent before it asks
  predict_reply reply;      // filled by the owner before it answers
  caf::error error;         // set instead of `reply` when there is no answer

  // The owner's side: `reply` or `error` is final; wakes the waiting agent.
  void answer();
  // The owner's side when there is no answer: sets `error`, then answer().
  void fail(caf::error reason);

 private:
  friend class predict_lane;
  enum : std::uint32_t { asked = 0, asked_and_asleep = 1, answered = 2 };
  void wait();  // until answer()
  std::atomic<std::uint32_t> state_{answered};
  predict_slot* next_ = nullptr;  // the lane's list
};

class predict_lane {
 public:
  // `owner` is sent lane_atom when requests wait that it was not told of.
  // Set once, before the first ask().
  void serve_by(const caf::actor_addr& owner) { owner_ = owner; }

  // The agent's side: submits the slot's request and blocks the calling
  // thread until the owner has answered it. Returns false, with
  // slot.error set, when the owner refused it or is gone.
  bool ask(predict_slot& slot);
  // ask() in two halves, so that one thread can have requests waiting at
  // several owners at once: post() submits the slot and returns; await()
  // blocks until it is answered (false, with slot.error set, as ask()).
  void post(predict_slot& slot);
  static bool await(predict_slot& slot);

  // The owner's side, on lane_atom: every slot asked since the last take,
  // appended to `out` oldest first; a request asked from now on sends a
  // new lane_atom.
  void take_announced(std::vector<predict_slot*>& out);
  // The owner's side at any other time: the same, leaving the lane_atom
  // already on its way to announce what comes next.
  void take(std::vector<predict_slot*>& out);

  // The owner is gone: every slot not yet taken, and every later ask(),
  // fails with `reason`. The owner answers the slots it took itself.
  void close(const caf::error& reason);

 private:
  void fail_waiting();

  std::atomic<predict_slot*> head_{nullptr};  // newest first
  std::atomic<bool> announced_{false};        // a lane_atom is on its way
  std::atomic<bool> closed_{false};
  caf::error close_reason_;  // written before closed_ is set
  caf::actor_addr owner_;
};

}  // namespace troupe::actors
