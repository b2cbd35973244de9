#pragma once
// The messages between Troupe and a Python environment host
// (envs/python/troupe_env_host.py, which mirrors these formats). Bulk data
// (actions, seeds, observations, rewards, flags) lives in shared memory; the
// socket carries one small command and one small answer per call.
#include <cstdint>

namespace troupe::envs::python {

enum class host_op : std::uint8_t {
  map = 1,        // payload: the shared memory's layout as JSON
  reset = 2,      // every environment, with the seeds in shared memory
  reset_one = 3,  // argument: the environment's index
  step = 4,       // argument: 1 to reset ended episodes with the seeds in shared memory
  render = 5,     // argument: the environment's index; answer: width, height (u32), RGB bytes
  bench = 6,      // argument: steps; answer: {"seconds", "cpu_seconds"} of the host stepping alone
  close = 7,
  start = 8,      // the first command; payload: the settings as JSON (what to make, how many)
  cpu_time = 9,   // answer: {"cpu_seconds": ...} the host process has used so far
};

#pragma pack(push, 1)
struct host_command {
  std::uint8_t op;
  std::uint8_t padding[3] = {0, 0, 0};
  std::uint32_t argument = 0;
  std::uint32_t payload_bytes = 0;
};

struct host_answer {
  std::uint8_t status;  // a host_status
  std::uint8_t padding[3];
  std::uint32_t payload_bytes;
};
#pragma pack(pop)
static_assert(sizeof(host_command) == 12 && sizeof(host_answer) == 8);

// How a command went; what failed, as a code rather than in the text.
enum class host_status : std::uint8_t {
  ok = 0,
  failed = 1,         // payload: the reason, or a Python traceback
  no_numpy = 2,       // the host cannot run: its interpreter has no numpy
  import_failed = 3,  // the environment's module (or gymnasium) cannot be imported; payload: why
};

// The host's fds, as its script expects them.
constexpr int host_socket_fd = 3;
constexpr int host_memory_fd = 4;

}  // namespace troupe::envs::python
