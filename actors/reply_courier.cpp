#include "actors/reply_courier.hpp"

#include <algorithm>

namespace troupe::actors {

namespace {

// What promise.deliver() does, but safe on any thread: the reply goes to the
// requester (or the next stage of a forwarded request) with no execution
// context, so the destination is scheduled by the actor system.
void answer(reply_target& r, const caf::actor_addr& owner) {
  if (r.slot) {
    r.slot->answer();
    return;
  }
  const caf::response_promise& promise = r.promise;
  caf::response_promise::forwarding_stack stages = promise.stages();
  caf::strong_actor_ptr sender = caf::actor_cast<caf::strong_actor_ptr>(owner), to;
  caf::message_id id = promise.id();
  if (stages.empty()) {
    to = promise.source();
    id = id.response_id();
  } else {
    sender = promise.source();
    to = std::move(stages.back());
    stages.pop_back();
  }
  if (to)
    to->enqueue(caf::make_mailbox_element(std::move(sender), id, std::move(stages), std::move(r.message)),
                nullptr);
}

}  // namespace

void reply_courier::batch::send_claimed() {
  for (size_t i = next.fetch_add(1); i < replies.size(); i = next.fetch_add(1))
    answer(replies[i], owner);
}

reply_courier::reply_courier(int threads, caf::actor_addr owner) : owner_(std::move(owner)) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { run(); });
}

reply_courier::~reply_courier() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
  for (auto& earlier : handed_over_) earlier->send_claimed();
}

void reply_courier::send(std::vector<reply_target>&& replies) {
  // What the courier has not got to since the last batch, the owner sends now.
  for (auto& earlier : handed_over_) earlier->send_claimed();
  handed_over_.clear();
  if (replies.size() < min_shared_batch) {
    for (auto& r : replies) r.deliver();
    replies.clear();
    return;
  }
  auto shared = std::make_shared<batch>();
  shared->replies = std::move(replies);
  shared->owner = owner_;
  replies.clear();
  // One courier per min_shared_batch replies, as many as there are.
  const size_t helpers = std::min(threads_.size(), shared->replies.size() / min_shared_batch);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < helpers; ++i) queue_.push_back(shared);
  }
  if (helpers == 1)
    wake_.notify_one();
  else
    wake_.notify_all();
  handed_over_.push_back(std::move(shared));
}

void reply_courier::run() {
  for (;;) {
    std::shared_ptr<batch> next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    next->send_claimed();  // nothing, if the owner has claimed them all already
  }
}

}  // namespace troupe::actors
