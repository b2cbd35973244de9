#include "actors/agent_thread.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>

namespace troupe::actors {

std::string schedule_this_thread_as_batch() {
  sched_param param{};
  param.sched_priority = 0;  // the only priority SCHED_BATCH has
  // On Linux, pid 0 is the calling thread, not the whole process.
  if (sched_setscheduler(0, SCHED_BATCH, &param) != 0) return std::strerror(errno);
  return "";
}

}  // namespace troupe::actors
