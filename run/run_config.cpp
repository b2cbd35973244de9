#include "run/run_config.hpp"

#include <algorithm>
#include <thread>

namespace troupe::run {

int batching_config::reply_threads_here() const {
  if (reply_threads > 0) return reply_threads;
  return std::clamp(int(std::thread::hardware_concurrency()) / cores_per_reply_thread, 1,
                    max_reply_threads);
}

}  // namespace troupe::run
