#include "bridges/python/host_group.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "bridges/python/interpreter.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"

namespace troupe::bridges::python {

using envs::env_id;
using envs::env_key_error;
using envs::env_source;

namespace {

using nlohmann::json;

// Importing a large module (or making many environments) may take a while.
constexpr std::chrono::seconds start_timeout{120};
// The last resort against a host that hangs; one that dies is seen at once.
constexpr std::chrono::seconds answer_timeout{300};

json settings_for(const env_config& config, const env_id& id, int count) {
  json paths = json::array();
  for (const auto& dir : config.python_path) paths.push_back(std::filesystem::absolute(dir).string());
  json kwargs;
  try {
    kwargs = json::parse(config.kwargs);
  } catch (const json::exception& e) {
    throw env_key_error("env.kwargs", "env.kwargs is not a mapping: " + std::string(e.what()));
  }
  json s = {{"id", id.text()}, {"kwargs", kwargs}, {"python_path", paths}, {"count", count}, {"action_mask", config.action_mask}};
  if (id.source() == env_source::gymnasium) {
    s["kind"] = "gymnasium";
    s["target"] = id.target();
  } else {
    s["kind"] = "python";
    s["target"] = {id.module(), id.callable()};
  }
  return s;
}

std::string range_name(int first, int count) {
  return count == 1 ? "env " + std::to_string(first)
                    : "envs " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// Starts one host per settings entry and reads every hello; they must agree.
host_group start(const env_config& config, const std::string& id, const std::string& key,
                 const std::vector<json>& settings, const std::vector<int>& counts) {
  const std::string interpreter = host_interpreter(config.python);
  const std::string script = host_script();
  std::vector<std::string> label{id};
  for (const auto& dir : config.python_path) label.push_back(std::filesystem::absolute(dir).string());
  host_group group;
  for (size_t p = 0, first = 0; p < settings.size(); ++p) {
    host_share s;
    s.first = int(first);
    s.count = counts[p];
    first += size_t(s.count);
    s.memory = std::make_unique<shared_region>();
    s.process = std::make_unique<host_process>(interpreter, script, label, settings[p].dump(), s.memory->fd(),
                                               range_name(s.first, s.count));
    group.shares.push_back(std::move(s));
  }
  json hello;
  for (auto& s : group.shares) {
    host_reply reply;
    try {
      reply = s.process->receive(start_timeout);
    } catch (const std::runtime_error& e) {
      throw env_key_error(key, "'" + id + "': " + e.what() + " while starting (interpreter " + interpreter + ")");
    }
    if (!reply.ok()) {
      std::string text = reply.payload;
      if (reply.status == host_status::no_numpy)
        text += " (the environment host needs numpy: install it for " + interpreter +
                ", or point env.python at an interpreter that has it)";
      if (reply.status == host_status::import_failed) {
        std::string dirs;
        for (const auto& d : config.python_path) dirs += (dirs.empty() ? "" : ", ") + d;
        text += " (interpreter " + interpreter + ", env.python_path [" + dirs + "])";
      }
      throw env_key_error(key, "'" + id + "': " + text);
    }
    if (hello.is_null())
      hello = json::parse(reply.payload);
    else if (json::parse(reply.payload) != hello)
      throw env_key_error(key, "'" + id + "': its processes made environments of different spaces");
  }
  group.hello = hello.dump();
  group.kind = hello.value("kind", std::string("env"));
  return group;
}

}  // namespace

std::chrono::milliseconds host_answer_timeout() { return answer_timeout; }

void host_group::collect(const char* what, const std::function<void(host_share&, const std::string&)>& use) {
  std::string failure;
  for (auto& s : shares) {
    try {
      const host_reply reply = s.process->receive(answer_timeout);
      if (reply.ok())
        use(s, reply.payload);
      else if (failure.empty())
        failure = "the Python environment (" + s.process->name() + ") raised an exception while " + what + ":\n" +
                  reply.payload;
    } catch (const std::runtime_error& e) {
      if (failure.empty()) failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

host_share& host_group::share_of(int i, int& local) {
  for (auto& s : shares)
    if (i >= s.first && i < s.first + s.count) {
      local = i - s.first;
      return s;
    }
  throw std::out_of_range("environment " + std::to_string(i));
}

std::vector<std::vector<int>> host_group::rows_of(const int* games, int n) const {
  std::vector<std::vector<int>> rows(shares.size());
  for (int i = 0; i < n; ++i) {
    bool found = false;
    for (size_t p = 0; p < shares.size() && !found; ++p)
      if (games[i] >= shares[p].first && games[i] < shares[p].first + shares[p].count) {
        rows[p].push_back(i);
        found = true;
      }
    if (!found) throw std::out_of_range("environment " + std::to_string(games[i]));
  }
  return rows;
}

std::string host_group::batch_payload(size_t p, const std::vector<int>& rows, const int* games, const void* extra,
                                      size_t extra_bytes) const {
  const host_share& s = shares[p];
  std::string payload;
  const auto put = [&](const void* from, size_t bytes) { payload.append(static_cast<const char*>(from), bytes); };
  const std::uint32_t count = std::uint32_t(rows.size());
  put(&count, sizeof count);
  for (int i : rows) {
    const std::uint32_t local = std::uint32_t(games[i] - s.first);
    put(&local, sizeof local);
  }
  const auto* bytes = static_cast<const char*>(extra);
  for (int i : rows) put(bytes + size_t(i) * extra_bytes, extra_bytes);
  return payload;
}

void host_group::exchange_records(host_op op, const char* what, const int* games, int n, const void* extra,
                                  size_t extra_bytes, size_t record_bytes,
                                  const std::function<void(int i, const char* record)>& read) {
  const std::vector<std::vector<int>> rows = rows_of(games, n);
  for (size_t p = 0; p < shares.size(); ++p) shares[p].process->send(op, 0, batch_payload(p, rows[p], games, extra, extra_bytes));
  collect(what, [&](host_share& s, const std::string& answer) {
    const size_t p = size_t(&s - shares.data());
    if (answer.size() != rows[p].size() * record_bytes)
      throw std::runtime_error("the Python game host (" + s.process->name() + ") answered " +
                               std::to_string(answer.size()) + " bytes, expected " +
                               std::to_string(rows[p].size() * record_bytes));
    const char* at = answer.data();
    for (int i : rows[p]) {
      read(i, at);
      at += record_bytes;
    }
  });
}

void host_group::render(int i, rgb_frame& frame) {
  int local = 0;
  host_share& s = share_of(i, local);
  s.process->send(host_op::render, std::uint32_t(local));
  const host_reply reply = s.process->receive(answer_timeout);
  if (!reply.ok())
    throw std::runtime_error("the Python environment (" + s.process->name() + ") could not render:\n" + reply.payload);
  std::uint32_t size[2] = {0, 0};
  if (reply.payload.size() < sizeof size) throw std::runtime_error("a frame without its size");
  std::memcpy(size, reply.payload.data(), sizeof size);
  if (reply.payload.size() != sizeof size + size_t(size[0]) * size[1] * 3)
    throw std::runtime_error("a frame of the wrong size from the Python environment host");
  frame.width = int(size[0]);
  frame.height = int(size[1]);
  frame.pixels.assign(reply.payload.begin() + sizeof size, reply.payload.end());
}

host_group start_environment_hosts(const env_config& config, int count, host_serves serves) {
  if (count < 1) throw std::invalid_argument("Python environments: at least one expected");
  const int processes = std::clamp(config.processes_per_agent, 1, count);
  std::vector<json> settings;
  std::vector<int> counts;
  for (int p = 0; p < processes; ++p) {
    counts.push_back(count / processes + (p < count % processes ? 1 : 0));
    json s = settings_for(config, config.id, counts.back());
    if (serves == host_serves::environments_or_games) s["games"] = "allowed";
    if (serves == host_serves::games) s["games"] = "only";
    settings.push_back(std::move(s));
  }
  return start(config, config.id.text(), "env.id", settings, counts);
}

host_group start_player_host(const env_config& config, const std::string& id, int observation_size,
                             int mask_size, int action_width, const std::string& key) {
  // A player's name has an environment id's form.
  const env_id player(id);
  if (player.source() != env_source::python)
    throw env_key_error(key, "'" + id + "' is not python:MODULE:CALLABLE");
  json s = settings_for(config, player, 1);
  s["role"] = "player";
  s["observation_size"] = observation_size;
  s["mask_size"] = mask_size;
  s["action_width"] = action_width;
  return start(config, id, key, {s}, {1});
}

}  // namespace troupe::bridges::python
