#pragma once
// The messages between Troupe and a Python environment host
// (bridges/python/troupe_env_host.py, which mirrors these formats). Bulk data
// (actions, seeds, observations, rewards, flags) lives in shared memory; the
// socket carries one small command and one small answer per call.
#include <cstdint>
#include <vector>

namespace troupe::bridges::python {

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
  // Games, AEC or Parallel (troupe_games.py), their data in the payloads: n
  // (u32), the games' indices (u32 each), then per game a seed (u64) or a
  // step's row (float32 each: every agent's action in turn, each as wide as
  // its own; an AEC game reads its mover's); the answer is each game's
  // state after it.
  game_reset = 10,
  game_step = 11,
  // A scripted player: n (u32), n observations (float32), n masks (u8); the
  // answer n actions (float32).
  act = 12,
  // AEC games: alphabeta's moves. Argument: the depth; payload: n (u32), the
  // games (u32 each), a seed each (u64); answer: n actions (float32).
  game_search = 13,
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

// The head of a game's state in a game_reset / game_step answer
// (troupe_games.py's state_head): the mover (i32, -1 once the game is over;
// a Parallel game says 0 while it goes on), the game's end (terminated,
// truncated: u8 each), and each agent's own end at this move (u8 per
// agent); the rewards (f64 per agent), views (f32 per agent) and masks
// (u8, every agent's in turn, each as long as its own; an AEC game's agents
// other than the mover's are zeros) follow.
struct game_state_head {
  std::int32_t to_move = -1;
  bool terminated = false;
  // Each agent's end, as game_result::left (empty when no agent's ended).
  std::vector<std::uint8_t> left;
  static size_t bytes(size_t agents) { return sizeof(std::int32_t) + 2 + agents; }
};
// Reads the head of a record of `agents` agents; throws std::runtime_error
// on an agent's end that is none of 0, 1, 2.
game_state_head read_state_head(const char* at, size_t agents);

}  // namespace troupe::bridges::python
