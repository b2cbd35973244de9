#pragma once
// The Python processes behind one agent's environments, games or scripted
// player (bridges/python/troupe_env_host.py), started together: each holds a
// contiguous share of the environments and has shared memory of its own.
// What a host says it serves (its hello) decides what Troupe makes of it: a
// Gymnasium-style vector (python_env_vector.hpp) or PettingZoo AEC games
// (python_game_vector.hpp).
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bridges/python/host_process.hpp"
#include "bridges/python/shared_region.hpp"
#include "envs/env_config.hpp"
#include "envs/render.hpp"

namespace troupe::bridges::python {

using envs::env_config;
using envs::rgb_frame;

struct host_share {
  std::unique_ptr<shared_region> memory;
  std::unique_ptr<host_process> process;
  int first = 0, count = 0;  // the environments it holds: [first, first + count)
};

// What the hosts may serve for env.id: single-agent environments only, AEC
// games too, or AEC games only.
enum class host_serves { environments, environments_or_games, games };

struct host_group {
  std::vector<host_share> shares;
  std::string hello;  // the first host's description of what it made (JSON); all agreed
  std::string kind;   // hello's "kind": "env" (Gymnasium-style), "aec" or "player"

  // Every share's answer to its last command; after all have answered, the
  // first failure is thrown as std::runtime_error (so none is left with an
  // answer unread).
  void collect(const char* what, const std::function<void(host_share&, const std::string&)>& use);
  // The share holding environment i, and i's index in it.
  host_share& share_of(int i, int& local);

  // For commands on listed environments (games): which rows of games[0..n)
  // each share holds, in order; the payload of share p's rows: their count
  // (u32), their local indices (u32 each), then `extra_bytes` of `extra` per
  // row, in order.
  std::vector<std::vector<int>> rows_of(const int* games, int n) const;
  std::string batch_payload(size_t p, const std::vector<int>& rows, const int* games, const void* extra,
                            size_t extra_bytes) const;
  // `op` on games[0..n) (their rows of `extra` as batch_payload), then
  // each share's answer read as one record of `record_bytes` per game, in
  // the order sent: read(i, record) for games[i]. Throws std::runtime_error
  // naming the host whose answer has another length.
  void exchange_records(host_op op, const char* what, const int* games, int n, const void* extra,
                        size_t extra_bytes, size_t record_bytes,
                        const std::function<void(int i, const char* record)>& read);
  // Environment i's picture (host_op::render); throws when the host fails.
  void render(int i, rgb_frame& frame);
};

// Starts env.processes_per_agent hosts (at most `count`) for `count` of
// config's environments and waits for their hello. Throws env_key_error
// naming env.id when they cannot start, when what env.id makes is not what
// `serves` allows, or when the processes disagree.
host_group start_environment_hosts(const env_config& config, int count, host_serves serves);

// One host running the scripted player MODULE:CALLABLE (`id` is
// python:MODULE:CALLABLE) for positions of `observation_size` floats, masks
// of `mask_size` and actions of `action_width` floats. Interpreter and path
// as config's. Throws env_key_error naming `key`.
host_group start_player_host(const env_config& config, const std::string& id, int observation_size,
                             int mask_size, int action_width, const std::string& key);

// How long a host may take to answer a command before it counts as hung.
std::chrono::milliseconds host_answer_timeout();

}  // namespace troupe::bridges::python
