#include "actors/predict_lane.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <utility>


namespace troupe::actors {

namespace {

// The kernel's wait queue for one word: the thread sleeps while the word
// still holds `expected`, and wakes on wake_one() (or spuriously).
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void futex_wake_one(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr,
          nullptr, 0);
}

}  // namespace

void predict_slot::answer() {
  // Only a sleeping agent needs the system call. Once the word says
  // answered the agent may return and reuse the slot, so nothing of the
  // slot is touched after the exchange but its address (a futex wake on a
  // word nobody waits on does nothing).
  if (state_.exchange(answered, std::memory_order_acq_rel) == asked_and_asleep)
    futex_wake_one(state_);
}

void predict_slot::fail(caf::error reason) {
  error = std::move(reason);
  answer();
}

void predict_slot::wait() {
  for (;;) {
    std::uint32_t s = state_.load(std::memory_order_acquire);
    if (s == answered) return;
    if (s == asked &&
        !state_.compare_exchange_weak(s, asked_and_asleep, std::memory_order_acquire))
      continue;  // answered meanwhile, or a spurious failure: look again
    futex_wait(state_, asked_and_asleep);
  }
}

bool predict_lane::ask(predict_slot& slot) {
  post(slot);
  return await(slot);
}

bool predict_lane::await(predict_slot& slot) {
  slot.wait();
  return !slot.error;
}

void predict_lane::post(predict_slot& slot) {
  slot.error = caf::error{};
  slot.state_.store(predict_slot::asked, std::memory_order_relaxed);
  predict_slot* head = head_.load(std::memory_order_relaxed);
  do {
    slot.next_ = head;
  } while (!head_.compare_exchange_weak(head, &slot, std::memory_order_seq_cst));
  if (closed_.load(std::memory_order_seq_cst)) {
    fail_waiting();  // our slot among them, unless the owner took it before it went
  } else if (!announced_.exchange(true, std::memory_order_seq_cst)) {
    if (auto owner = caf::actor_cast<caf::actor>(owner_))
      caf::anon_send(owner, lane_atom_v);
    // else the owner is gone and its close() fails our slot
  }
}

void predict_lane::take(std::vector<predict_slot*>& out) {
  predict_slot* newest = head_.exchange(nullptr, std::memory_order_seq_cst);
  const size_t first = out.size();
  // Pushed newest first; the owner serves oldest first.
  for (predict_slot* s = newest; s != nullptr; s = s->next_) out.push_back(s);
  std::reverse(out.begin() + std::ptrdiff_t(first), out.end());
}

void predict_lane::take_announced(std::vector<predict_slot*>& out) {
  // Before the list is taken: a request that misses this take finds the
  // flag down and announces itself.
  announced_.store(false, std::memory_order_seq_cst);
  take(out);
}

void predict_lane::close(const caf::error& reason) {
  close_reason_ = reason;
  closed_.store(true, std::memory_order_seq_cst);
  fail_waiting();
}

void predict_lane::fail_waiting() {
  std::vector<predict_slot*> left;
  take(left);
  for (predict_slot* s : left) s->fail(close_reason_);
}

}  // namespace troupe::actors
