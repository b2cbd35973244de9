#pragma once
// A critical section: runs closures one at a time on the resources it guards
// (like TensorFlow's CriticalSection). `run` is exclusive; `run_shared` lets
// readers run together but never beside an exclusive closure, so a reader
// sees the resources either before or after a `run`, never half-way.
//
// Entering a section again from a thread that is already inside it would
// deadlock; it throws std::logic_error instead. Two sections that claim the
// same resource exclusively would not serialise each other; constructing the
// second throws std::logic_error, unless both claims are marked shared.
#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace troupe::model {

enum class claim {
  exclusive,  // this section is the only one that guards the resource
  shared,     // read-only use: other shared claims may guard it too
};

class critical_section {
 public:
  // `resources` are the addresses of what the section guards.
  explicit critical_section(std::string name, std::vector<const void*> resources = {},
                            claim mode = claim::exclusive);
  ~critical_section();
  critical_section(const critical_section&) = delete;
  critical_section& operator=(const critical_section&) = delete;

  const std::string& name() const { return name_; }

  template <class F>
  auto run(F&& f) {
    holder h(this);
    // Holding the turnstile keeps new readers out, so an update waits for
    // the readers already inside and no longer: readers cannot starve it.
    std::unique_lock<std::mutex> turn(turnstile_);
    std::unique_lock<std::shared_mutex> lock(mutex_);
    turn.unlock();
    return std::forward<F>(f)();
  }

  template <class F>
  auto run_shared(F&& f) {
    holder h(this);
    { std::lock_guard<std::mutex> turn(turnstile_); }  // wait behind a queued update
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return std::forward<F>(f)();
  }

  // True when the calling thread is inside this section.
  bool held_by_this_thread() const {
    const auto& held = held_sections();
    return std::find(held.begin(), held.end(), this) != held.end();
  }

 private:
  static std::vector<const critical_section*>& held_sections() {
    thread_local std::vector<const critical_section*> held;
    return held;
  }

  // Marks the section as held by this thread for the closure's duration.
  struct holder {
    explicit holder(const critical_section* cs) : cs_(cs) {
      if (cs->held_by_this_thread())
        throw std::logic_error("critical section '" + cs->name_ +
                               "' entered again by the thread that holds it "
                               "(nested use would deadlock)");
      held_sections().push_back(cs);
    }
    ~holder() {
      auto& held = held_sections();
      held.erase(std::find(held.begin(), held.end(), cs_));
    }
    const critical_section* cs_;
  };

  std::string name_;
  std::vector<const void*> resources_;
  claim mode_;
  std::mutex turnstile_;
  std::shared_mutex mutex_;
};

}  // namespace troupe::model
