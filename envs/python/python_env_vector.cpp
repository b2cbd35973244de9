#include "envs/python/python_env_vector.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "envs/env_error.hpp"
#include "envs/env_id.hpp"
#include "envs/python/host_process.hpp"
#include "envs/python/interpreter.hpp"
#include "envs/python/shared_region.hpp"

namespace troupe::envs::python {

namespace {

using nlohmann::json;

// Importing a large module (or making many environments) may take a while.
constexpr std::chrono::seconds start_timeout{120};
// The last resort against a host that hangs; one that dies is seen at once.
constexpr std::chrono::seconds answer_timeout{300};

double bound(const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    return (s == "-inf" ? -1 : 1) * std::numeric_limits<double>::infinity();
  }
  return v.get<double>();
}

// A Discrete or Box space as the host described it.
space flat_space_of(const json& d, bool observation) {
  if (d.at("kind") == "discrete") {
    const int n = d.at("n").get<int>();
    if (n < 1) throw env_key_error("env.id", "a Discrete space with n = " + std::to_string(n));
    if (!observation) return space::discrete_space(n);
    return space::box_space({n}, std::vector<double>(size_t(n), 0.0), std::vector<double>(size_t(n), 1.0));
  }
  std::vector<int> shape = d.at("shape").get<std::vector<int>>();
  std::vector<double> low, high;
  for (const auto& v : d.at("low")) low.push_back(bound(v));
  for (const auto& v : d.at("high")) high.push_back(bound(v));
  space s = space::box_space(std::move(shape), std::move(low), std::move(high));
  if (s.low.size() != size_t(s.flat_size()) || s.high.size() != size_t(s.flat_size()))
    throw env_key_error("env.id", "a Box whose bounds do not match its shape");
  return s;
}

// A space as the host described it: a Discrete observation becomes a
// one-hot Box, and the host encodes a structured one (Dict, Tuple,
// MultiDiscrete, MultiBinary) as a flat Box too, which `declared` names; a
// structured discrete action is a MultiDiscrete one, a structured one with
// Box parts a hybrid one (or a Box, with no discrete part).
space space_of(const json& d, bool observation) {
  space s = [&] {
    if (d.at("kind") == "multi_discrete") {
      std::vector<int> nvec = d.at("nvec").get<std::vector<int>>();
      if (nvec.empty() || std::any_of(nvec.begin(), nvec.end(), [](int n) { return n < 1; }))
        throw env_key_error("env.id", "a MultiDiscrete action space needs at least one choice in each component");
      return space::multi_discrete_space(std::move(nvec));
    }
    if (d.at("kind") == "hybrid") {
      std::vector<int> nvec = d.at("nvec").get<std::vector<int>>();
      std::vector<double> low, high;
      for (const auto& v : d.at("low")) low.push_back(bound(v));
      for (const auto& v : d.at("high")) high.push_back(bound(v));
      if (nvec.empty() || std::any_of(nvec.begin(), nvec.end(), [](int n) { return n < 1; }) ||
          low.empty() || low.size() != high.size())
        throw env_key_error("env.id", "a hybrid action space needs discrete components with a choice each "
                                      "and a Box part with its bounds");
      return space::hybrid_space(std::move(nvec), std::move(low), std::move(high));
    }
    return flat_space_of(d, observation);
  }();
  if (d.contains("declared")) s.declared = d.at("declared").get<std::string>();
  if (d.contains("leaves"))
    for (const json& leaf : d.at("leaves"))
      s.leaves.push_back({leaf.at("key").get<std::string>(), leaf.at("kind").get<std::string>(),
                          leaf.at("shape").get<std::vector<int>>(), leaf.at("nvec").get<std::vector<int>>(),
                          leaf.at("start").get<std::vector<int>>(), leaf.at("offset").get<int>(),
                          leaf.at("size").get<int>()});
  return s;
}

json settings_for(const env_config& config, int count) {
  const env_id_parts parts = parse_env_id(config.id);
  json paths = json::array();
  for (const auto& dir : config.python_path) paths.push_back(std::filesystem::absolute(dir).string());
  json kwargs;
  try {
    kwargs = json::parse(config.kwargs);
  } catch (const json::exception& e) {
    throw env_key_error("env.kwargs", "env.kwargs is not a mapping: " + std::string(e.what()));
  }
  json s = {{"id", config.id},   {"kwargs", kwargs}, {"python_path", paths},
            {"count", count}, {"action_mask", config.action_mask}};
  if (parts.source == env_source::gymnasium) {
    s["kind"] = "gymnasium";
    s["target"] = parts.target;
  } else {
    s["kind"] = "python";
    s["target"] = {parts.module, parts.callable};
  }
  return s;
}

std::string range_name(int first, int count) {
  return count == 1 ? "env " + std::to_string(first)
                    : "envs " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

python_env_vector::python_env_vector(const env_config& config, int count) : count_(count) {
  if (count < 1) throw std::invalid_argument("a Python environment vector needs an environment");
  const std::string interpreter = host_interpreter(config.python);
  const std::string script = host_script();
  // The processes start together, then each is asked for its spaces.
  const int processes = std::clamp(config.processes_per_agent, 1, count);
  std::vector<std::string> label{config.id};
  for (const auto& dir : config.python_path) label.push_back(std::filesystem::absolute(dir).string());
  for (int p = 0, first = 0; p < processes; ++p) {
    share s;
    s.first = first;
    s.count = count / processes + (p < count % processes ? 1 : 0);
    first += s.count;
    s.memory = std::make_unique<shared_region>();
    s.process = std::make_unique<host_process>(interpreter, script, label,
                                               settings_for(config, s.count).dump(),
                                               s.memory->fd(), range_name(s.first, s.count));
    shares_.push_back(std::move(s));
  }
  json hello;
  for (auto& s : shares_) {
    host_reply reply;
    try {
      reply = s.process->receive(start_timeout);
    } catch (const std::runtime_error& e) {
      throw env_key_error("env.id", "'" + config.id + "': " + e.what() + " while starting (interpreter " +
                      interpreter + ")");
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
      throw env_key_error("env.id", "'" + config.id + "': " + text);
    }
    if (hello.is_null())
      hello = json::parse(reply.payload);
    else if (json::parse(reply.payload) != hello)
      throw env_key_error("env.id", "'" + config.id + "': its processes made environments of different spaces");
  }
  try {
    spec_.id = config.id;
    spec_.observation = space_of(hello.at("observation"), true);
    spec_.action = space_of(hello.at("action"), false);
    spec_.max_episode_steps = hello.at("max_episode_steps").get<int>();
    can_render_ = hello.at("can_render").get<bool>();
    spec_.has_action_mask = hello.at("action_mask").get<bool>();
    spec_.observation_mask_key = hello.value("observation_mask_key", std::string());
  } catch (const json::exception& e) {
    throw env_key_error("env.id", "'" + config.id + "': the environment host described it unreadably: " + e.what());
  }
  obs_size_ = spec_.observation.flat_size();
  action_size_ = spec_.action.flat_size();
  for (auto& s : shares_) {
    s.memory->map(region_layout::for_envs(s.count, obs_size_, action_size_,
                                          spec_.has_action_mask ? spec_.action.choice_count() : 0));
    s.process->send(host_op::map, 0, s.memory->layout().json());
  }
  collect("mapping shared memory", [](share&, const std::string&) {});
}

python_env_vector::~python_env_vector() = default;

void python_env_vector::collect(const char* what,
                                const std::function<void(share&, const std::string&)>& use) {
  std::string failure;
  for (auto& s : shares_) {
    try {
      const host_reply reply = s.process->receive(answer_timeout);
      if (reply.ok())
        use(s, reply.payload);
      else if (failure.empty())
        failure = "the Python environment (" + s.process->name() + ") raised an exception while " +
                  what + ":\n" + reply.payload;
    } catch (const std::runtime_error& e) {
      if (failure.empty()) failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

python_env_vector::share& python_env_vector::share_of(int i, int& local) {
  if (i < 0 || i >= count_) throw std::out_of_range("environment " + std::to_string(i));
  for (auto& s : shares_)
    if (i < s.first + s.count) {
      local = i - s.first;
      return s;
    }
  throw std::out_of_range("environment " + std::to_string(i));
}

void python_env_vector::reset(const std::uint64_t* seeds, float* observations) {
  for (auto& s : shares_) {
    std::copy_n(seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::reset);
  }
  collect("resetting", [&](share& s, const std::string&) {
    std::copy_n(s.memory->observations(), size_t(s.count) * obs_size_,
                observations + size_t(s.first) * obs_size_);
  });
}

void python_env_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  int local = 0;
  share& s = share_of(i, local);
  s.memory->seeds()[local] = seed;
  s.process->send(host_op::reset_one, std::uint32_t(local));
  const host_reply reply = s.process->receive(answer_timeout);
  if (!reply.ok())
    throw std::runtime_error("the Python environment (" + s.process->name() +
                             ") raised an exception while resetting:\n" + reply.payload);
  std::copy_n(s.memory->observations() + size_t(local) * obs_size_, obs_size_, observation);
}

void python_env_vector::step(const float* actions, const std::uint64_t* reset_seeds,
                             float* observations, step_result* results,
                             float* final_observations) {
  for (auto& s : shares_) {
    std::copy_n(actions + size_t(s.first) * action_size_, size_t(s.count) * action_size_,
                s.memory->actions());
    if (reset_seeds) std::copy_n(reset_seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::step, reset_seeds ? 1 : 0);
  }
  collect("stepping", [&](share& s, const std::string&) {
    shared_region& m = *s.memory;
    std::copy_n(m.observations(), size_t(s.count) * obs_size_,
                observations + size_t(s.first) * obs_size_);
    for (int j = 0; j < s.count; ++j) {
      step_result& r = results[s.first + j];
      r.reward = m.rewards()[j];
      r.terminated = m.terminated()[j] != 0;
      r.truncated = m.truncated()[j] != 0;
      if (r.terminated || r.truncated)
        std::copy_n(m.final_observations() + size_t(j) * obs_size_, obs_size_,
                    final_observations + size_t(s.first + j) * obs_size_);
    }
  });
}

void python_env_vector::action_masks(std::uint8_t* masks) const {
  const size_t n = size_t(spec_.action.choice_count());
  for (const auto& s : shares_)
    std::copy_n(s.memory->action_masks(), size_t(s.count) * n, masks + size_t(s.first) * n);
}

bool python_env_vector::render(int i, rgb_frame& frame) {
  if (!can_render_) return false;
  int local = 0;
  share& s = share_of(i, local);
  s.process->send(host_op::render, std::uint32_t(local));
  const host_reply reply = s.process->receive(answer_timeout);
  if (!reply.ok())
    throw std::runtime_error("the Python environment (" + s.process->name() +
                             ") could not render:\n" + reply.payload);
  std::uint32_t size[2] = {0, 0};
  if (reply.payload.size() < sizeof size) throw std::runtime_error("a frame without its size");
  std::memcpy(size, reply.payload.data(), sizeof size);
  const size_t bytes = size_t(size[0]) * size[1] * 3;
  if (reply.payload.size() != sizeof size + bytes)
    throw std::runtime_error("a frame of the wrong size from the Python environment host");
  frame.width = int(size[0]);
  frame.height = int(size[1]);
  frame.pixels.assign(reply.payload.begin() + sizeof size, reply.payload.end());
  return true;
}

python_env_vector::host_times python_env_vector::time_alone(const float* actions,
                                                            const std::uint64_t* seeds, long steps) {
  for (auto& s : shares_) {
    std::copy_n(actions + size_t(s.first) * action_size_, size_t(s.count) * action_size_,
                s.memory->actions());
    std::copy_n(seeds + s.first, s.count, s.memory->seeds());
    s.process->send(host_op::bench, std::uint32_t(steps));
  }
  host_times times;
  collect("benchmarking", [&](share&, const std::string& payload) {
    const json t = json::parse(payload);
    times.seconds = std::max(times.seconds, t.at("seconds").get<double>());
    times.cpu_seconds += t.at("cpu_seconds").get<double>();
  });
  return times;
}

double python_env_vector::host_cpu_seconds() {
  for (auto& s : shares_) s.process->send(host_op::cpu_time);
  double total = 0.0;
  collect("reading its CPU time", [&](share&, const std::string& payload) {
    total += json::parse(payload).at("cpu_seconds").get<double>();
  });
  return total;
}

std::vector<int> python_env_vector::host_pids() const {
  std::vector<int> pids;
  for (const auto& s : shares_) pids.push_back(int(s.process->pid()));
  return pids;
}

}  // namespace troupe::envs::python
