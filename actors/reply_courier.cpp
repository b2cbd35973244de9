#include "actors/reply_courier.hpp"

#include <algorithm>

namespace troupe::actors {

void reply_courier::batch::send_claimed() {
  for (size_t i = next.fetch_add(1); i < replies.size(); i = next.fetch_add(1))
    replies[i].first.deliver(std::move(replies[i].second));
}

reply_courier::reply_courier(int threads) {
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

void reply_courier::send(std::vector<reply>&& replies) {
  // What the courier has not got to since the last batch, the owner sends now.
  for (auto& earlier : handed_over_) earlier->send_claimed();
  handed_over_.clear();
  if (replies.size() < min_shared_batch) {
    for (auto& [promise, r] : replies) promise.deliver(std::move(r));
    replies.clear();
    return;
  }
  auto shared = std::make_shared<batch>();
  shared->replies = std::move(replies);
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
