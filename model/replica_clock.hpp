#pragma once
// A vector clock over parameter replicas, for measuring (never for deciding):
// count(r, o) is how many of replica o's own updates replica r has applied.
// Each replica writes only its own row; anyone may read any entry at any
// time, so a test or the metrics can see how far behind each replica really
// is, independently of the acknowledgements the replicas exchange.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace troupe::model {

class replica_clock {
 public:
  explicit replica_clock(int replicas)
      : replicas_(replicas), counts_(new std::atomic<std::uint64_t>[replicas * replicas]) {
    for (int i = 0; i < replicas * replicas; ++i) counts_[i].store(0);
  }

  int replicas() const { return replicas_; }

  // Replica `r` has now applied `count` updates of replica `origin`.
  void set(int r, int origin, std::uint64_t count) { at(r, origin).store(count); }
  std::uint64_t count(int r, int origin) const { return at(r, origin).load(); }

  // If `origin` applied its own update number `n` now, the most of its
  // updates that any other replica would be missing. Read before the update
  // is applied, it is never less than the true lag at that moment (counts
  // only grow).
  std::uint64_t lag_if_applied(int origin, std::uint64_t n) const {
    std::uint64_t lag = 0;
    for (int r = 0; r < replicas_; ++r) {
      if (r == origin) continue;
      const std::uint64_t seen = count(r, origin);
      if (n > seen && n - seen > lag) lag = n - seen;
    }
    return lag;
  }

 private:
  std::atomic<std::uint64_t>& at(int r, int origin) const { return counts_[r * replicas_ + origin]; }

  int replicas_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;
};

}  // namespace troupe::model
