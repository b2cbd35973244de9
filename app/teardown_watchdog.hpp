#pragma once
// Bounds the actor system's teardown once a command's results are safely
// written. CAF 0.17's shutdown can wait forever for a detached actor that a
// closed network connection still references (seen about once in ten
// loopback cluster runs); the run's output is complete by then, so the
// process leaves with its exit code instead of hanging.
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace troupe::app {

class teardown_watchdog {
 public:
  teardown_watchdog() = default;
  teardown_watchdog(const teardown_watchdog&) = delete;
  teardown_watchdog& operator=(const teardown_watchdog&) = delete;
  // Declare the watchdog before the actor system, so the system is torn down
  // while the armed watchdog still watches.
  ~teardown_watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void arm(int exit_code, std::chrono::seconds limit = std::chrono::seconds(10)) {
    thread_ = std::thread([this, exit_code, limit] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_changed_.wait_for(lock, limit, [this] { return done_; })) {
        std::fprintf(stderr,
                     "troupe: the actor system did not shut down within %lld s; exiting "
                     "(results were written before)\n",
                     static_cast<long long>(limit.count()));
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(exit_code);
      }
    });
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace troupe::app
