#pragma once
// Shares the sending of a batch's replies between the model-owner's thread
// and courier threads of its own (one, or more on machines with many cores).
//
// Sending a reply to an agent wakes that agent's thread, which costs the
// sender several microseconds (a futex wake, and on a virtual machine an
// inter-processor interrupt). With 64 agents asking for one row each, the
// owner spent most of its time on those wake-ups while the other core had
// time to spare (`troupe bench inference`'s `reply %`). So the owner hands
// each large batch of replies to the courier and sends from the same list
// itself; each reply is claimed by exactly one of the two, and the owner goes
// back to its mailbox as soon as every reply has been claimed. A courier that
// is slow to wake costs nothing: the owner then sends them all. With many
// agents on many cores one courier is not enough (1024 agents on 16 cores:
// the owner spent half its time replying), so a large batch is shared by up
// to `threads` couriers, one per min_shared_batch replies.
//
// A courier answers a message without the promise's deliver(), which reads
// the owner's execution context while the owner's thread rewrites it (a
// data race ThreadSanitizer found, scripts/sanitize.sh thread): it enqueues
// the reply itself, as any thread outside an actor sends a message.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "actors/reply_target.hpp"

namespace troupe::actors {

class reply_courier {
 public:
  // Batches with fewer replies are sent by the owner alone: waking the
  // courier costs about what sending a few replies does.
  static constexpr size_t min_shared_batch = 8;

  // `threads` couriers (at least one) for the actor `owner`, which the
  // replies come from.
  reply_courier(int threads, caf::actor_addr owner);
  ~reply_courier();  // sends whatever is left, then joins the threads
  reply_courier(const reply_courier&) = delete;
  reply_courier& operator=(const reply_courier&) = delete;

  // Sends every reply exactly once, with the courier's help when the batch
  // is large; returns when each has been claimed (the courier may still be
  // sending its last ones).
  void send(std::vector<reply_target>&& replies);

 private:
  struct batch {
    std::vector<reply_target> replies;
    std::atomic<size_t> next{0};
    caf::actor_addr owner;
    void send_claimed();  // claims and sends replies until none is left
  };
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<batch>> queue_;  // one entry per courier asked to help
  std::vector<std::shared_ptr<batch>> handed_over_;  // the owner's view of them
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  caf::actor_addr owner_;
};

}  // namespace troupe::actors
