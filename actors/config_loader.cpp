#include "actors/config_loader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "envs/env_error.hpp"
#include "envs/env_id.hpp"
#include "envs/mujoco/tasks.hpp"
#include "envs/registry.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::actors {

namespace {

// Where a value came from, for error messages.
struct origin {
  std::string file;
  std::set<std::string> overridden;  // keys set by --set

  std::string at(const std::string& key, const YAML::Node& node) const {
    if (overridden.count(key)) return "--set " + key;
    const YAML::Mark m = node.Mark();
    if (m.line < 0) return file;
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
};

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what) {
  throw config_error(where + ": key '" + key + "': " + what);
}

std::string scalar_text(const YAML::Node& node) {
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "nothing";
}

// One config key: how to read it, write it back and describe it.
struct field {
  std::string key, type, range, help;
  std::function<void(const YAML::Node&, const std::string& where)> read;
  std::function<YAML::Node()> write;
};

template <class T>
bool scalar_as(const YAML::Node& node, T& out) {
  if (!node.IsScalar()) return false;
  try {
    out = node.as<T>();
    return true;
  } catch (const YAML::Exception&) {
    return false;
  }
}

std::string range_text(double lo, double hi, bool lo_open) {
  auto num = [](double v) {
    std::ostringstream s;
    s << v;
    return s.str();
  };
  const bool inf = hi == std::numeric_limits<double>::infinity();
  return std::string(lo_open ? "(" : "[") + num(lo) + ", " + (inf ? "inf)" : num(hi) + "]");
}

field number(const std::string& key, double& target, double lo, double hi, bool lo_open,
             const std::string& help) {
  const std::string range = range_text(lo, hi, lo_open);
  return {key, "number", range, help,
          [&target, key, lo, hi, lo_open, range](const YAML::Node& n, const std::string& where) {
            double v;
            if (!scalar_as(n, v) || !std::isfinite(v))
              fail(where, key, "expected a number, got " + scalar_text(n));
            if (v < lo || v > hi || (lo_open && v == lo))
              fail(where, key, "expected a number in " + range + ", got " + n.Scalar());
            target = v;
          },
          [&target] { return YAML::Node(target); }};
}

template <class Int>
field integer(const std::string& key, Int& target, long long lo, long long hi,
              const std::string& help) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return {key, "integer", range, help,
          [&target, key, lo, hi, range](const YAML::Node& n, const std::string& where) {
            long long v;
            double d;
            if (!scalar_as(n, v)) {
              if (scalar_as(n, d) && std::isfinite(d))
                fail(where, key, "expected an integer, got " + n.Scalar());
              fail(where, key, "expected an integer, got " + scalar_text(n));
            }
            if (v < lo || v > hi)
              fail(where, key, "expected an integer in " + range + ", got " + n.Scalar());
            target = static_cast<Int>(v);
          },
          [&target] { return YAML::Node(static_cast<long long>(target)); }};
}

field boolean(const std::string& key, bool& target, const std::string& help) {
  return {key, "bool", "true | false", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!scalar_as(n, target))
              fail(where, key, "expected true or false, got " + scalar_text(n));
          },
          [&target] { return YAML::Node(target); }};
}

// A string value, refused when it holds a control character: what a config
// names ends up in file names, logs and the run's config.yaml, where a stray
// carriage return is a mistake, and yaml-cpp does not write such characters
// back as it read them (YAML reads CR, NEL and U+2028/9 as line breaks).
std::string text_of(const YAML::Node& n, const std::string& where, const std::string& key) {
  const std::string& s = n.Scalar();
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const auto next = static_cast<unsigned char>(i + 1 < s.size() ? s[i + 1] : 0);
    const bool c0 = c < 0x20 || c == 0x7f;
    const bool c1 = c == 0xc2 && next >= 0x80 && next <= 0x9f;
    const bool separator = c == 0xe2 && next == 0x80 && i + 2 < s.size() &&
                           (static_cast<unsigned char>(s[i + 2]) == 0xa8 ||
                            static_cast<unsigned char>(s[i + 2]) == 0xa9);
    if (c0 || c1 || separator)
      fail(where, key, "a control character or line break (byte " + std::to_string(c) + ", at character " +
                           std::to_string(i + 1) + ") in a text value; text values hold printable characters only");
  }
  return s;
}

// A string; `allowed` (when not empty) lists its legal values.
field text(const std::string& key, std::string& target, std::vector<std::string> allowed,
           const std::string& help) {
  std::string range;
  for (const auto& a : allowed) range += (range.empty() ? "" : " | ") + a;
  return {key, "string", range.empty() ? "non-empty" : range, help,
          [&target, key, allowed, range](const YAML::Node& n, const std::string& where) {
            if (!n.IsScalar() || n.Scalar().empty())
              fail(where, key, "expected a non-empty string, got " + scalar_text(n));
            if (!allowed.empty() &&
                std::find(allowed.begin(), allowed.end(), n.Scalar()) == allowed.end())
              fail(where, key, "expected one of " + range + ", got '" + n.Scalar() + "'");
            target = text_of(n, where, key);
          },
          [&target] { return YAML::Node(target); }};
}

// A name that becomes part of a file name (the run directory's).
field file_name(const std::string& key, std::string& target, const std::string& help) {
  return {key, "string", "non-empty, no '/', not starting with '.'", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!n.IsScalar() || n.Scalar().empty())
              fail(where, key, "expected a non-empty string, got " + scalar_text(n));
            const std::string name = text_of(n, where, key);
            if (name.find('/') != std::string::npos || name[0] == '.')
              fail(where, key, "expected a name without '/' that does not start with '.' (it names the run directory), got '" +
                                   name + "'");
            target = name;
          },
          [&target] { return YAML::Node(target); }};
}

// One of a fixed set of names, each standing for a value of T.
template <class T>
field choice(const std::string& key, T& target, std::vector<std::pair<std::string, T>> names,
             const std::string& help) {
  std::string range;
  for (const auto& item : names) range += (range.empty() ? "" : " | ") + item.first;
  return {key, "string", range, help,
          [&target, key, names, range](const YAML::Node& n, const std::string& where) {
            if (!n.IsScalar() || n.Scalar().empty())
              fail(where, key, "expected a non-empty string, got " + scalar_text(n));
            for (const auto& [name, value] : names)
              if (name == n.Scalar()) {
                target = value;
                return;
              }
            fail(where, key, "expected one of " + range + ", got '" + n.Scalar() + "'");
          },
          [&target, names] {
            for (const auto& [name, value] : names)
              if (value == target) return YAML::Node(name);
            return YAML::Node();
          }};
}

// A string that may be empty (meaning: not set).
field optional_text(const std::string& key, std::string& target, const std::string& help) {
  return {key, "string", "any (empty: not set)", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (n.IsNull()) {
              target.clear();
              return;
            }
            if (!n.IsScalar()) fail(where, key, "expected a string, got " + scalar_text(n));
            target = text_of(n, where, key);
          },
          [&target] { return YAML::Node(target); }};
}

// A list of integers in [lo, hi]; `may_be_empty` false: a list given must
// hold at least one (the default, empty, still means "not set").
field int_list(const std::string& key, std::vector<int>& target, int lo, int hi,
               const std::string& help, bool may_be_empty = true) {
  const std::string range = "each in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" +
                            (may_be_empty ? "" : ", at least one");
  return {key, "list of integers", range, help,
          [&target, key, lo, hi, range, may_be_empty](const YAML::Node& n, const std::string& where) {
            if (!n.IsSequence()) fail(where, key, "expected a list of integers, got " + scalar_text(n));
            if (!may_be_empty && n.size() == 0)
              fail(where, key, "expected a non-empty list of integers, got an empty one");
            std::vector<int> out;
            for (const auto& item : n) {
              long long v;
              if (!scalar_as(item, v) || v < lo || v > hi)
                fail(where, key, "expected integers " + range + ", got " + scalar_text(item));
              out.push_back(static_cast<int>(v));
            }
            target = out;
          },
          [&target, may_be_empty] {
            // Not set (a list that may not be empty, left empty): nothing to write.
            if (!may_be_empty && target.empty()) return YAML::Node();
            YAML::Node n(YAML::NodeType::Sequence);
            for (int v : target) n.push_back(v);
            return n;
          }};
}

field device_list(const std::string& key, std::vector<std::string>& target,
                  const std::string& help) {
  return {key, "list of strings", "each cpu or cuda:N (cuda: a CUDA build only)", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!n.IsSequence() || n.size() == 0)
              fail(where, key, "expected a non-empty list of devices such as [cpu] or [cpu, cpu], got " +
                                   scalar_text(n));
            if (n.size() > 64) fail(where, key, "expected at most 64 devices, got " + std::to_string(n.size()));
            std::vector<std::string> out;
            for (const auto& item : n) {
              if (!item.IsScalar())
                fail(where, key, "expected 'cpu' or 'cuda:N', got " + scalar_text(item));
              const std::string& name = item.Scalar();
              if (const std::string problem = model::device_problem(name); !problem.empty())
                fail(where, key, problem);
              out.push_back(name);
            }
            target = out;
          },
          [&target] {
            YAML::Node n(YAML::NodeType::Sequence);
            for (const auto& v : target) n.push_back(v);
            return n;
          }};
}

// env.id: a registered id or one of the prefixed forms, its syntax checked
// (and a plugin's file found) without importing or loading anything.
field env_id(const std::string& key, std::string& target, const std::string& help) {
  std::string range;
  for (const auto& e : envs::registered_envs()) range += e.id + " | ";
  range += "python:MODULE:CALLABLE | gymnasium:ENV_ID | plugin:PATH.so";
  return {key, "string", range, help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!n.IsScalar() || n.Scalar().empty())
              fail(where, key, "expected a non-empty string, got " + scalar_text(n));
            const std::string id = text_of(n, where, key);
            if (const std::string problem = envs::env_id_problem(id); !problem.empty())
              fail(where, key, problem);
            target = id;
          },
          [&target] { return YAML::Node(target); }};
}

field text_list(const std::string& key, std::vector<std::string>& target, const std::string& help) {
  return {key, "list of strings", "any", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!n.IsSequence()) fail(where, key, "expected a list of strings, got " + scalar_text(n));
            std::vector<std::string> out;
            for (const auto& item : n) {
              if (!item.IsScalar() || item.Scalar().empty())
                fail(where, key, "expected non-empty strings, got " + scalar_text(item));
              out.push_back(text_of(item, where, key));
            }
            target = out;
          },
          [&target] {
            YAML::Node n(YAML::NodeType::Sequence);
            for (const auto& v : target) n.push_back(v);
            return n;
          }};
}

// Why a YAML value cannot become JSON (json_of).
struct not_json : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A YAML value as JSON. YAML keeps no types: a quoted scalar is a string,
// a plain one the first of bool, integer, number that reads it, else a string.
// `budget` counts the values it may still make: aliases let a few lines of
// YAML name a tree of billions of them (each alias of an alias doubles it).
nlohmann::json json_of(const YAML::Node& n, long& budget) {
  if (--budget < 0) throw not_json("more than 100000 values (aliases of aliases?)");
  if (n.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : n) {
      if (!item.first.IsScalar()) throw not_json("expected plain names as keys");
      out[item.first.Scalar()] = json_of(item.second, budget);
    }
    return out;
  }
  if (n.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : n) out.push_back(json_of(item, budget));
    return out;
  }
  if (!n.IsScalar()) return nullptr;
  if (n.Tag() == "!") return n.Scalar();
  bool b;
  long long i;
  double d;
  if (scalar_as(n, b)) return b;
  if (scalar_as(n, i)) return i;
  if (scalar_as(n, d)) return d;
  return n.Scalar();
}

// JSON as YAML; strings are tagged so that to_yaml quotes them ("123" stays
// a string when read back).
YAML::Node yaml_of(const nlohmann::json& j) {
  if (j.is_object()) {
    YAML::Node out(YAML::NodeType::Map);
    for (const auto& [k, v] : j.items()) out[k] = yaml_of(v);
    return out;
  }
  if (j.is_array()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const auto& v : j) out.push_back(yaml_of(v));
    return out;
  }
  if (j.is_boolean()) return YAML::Node(j.get<bool>());
  if (j.is_number_integer()) return YAML::Node(j.get<long long>());
  if (j.is_number()) return YAML::Node(j.get<double>());
  if (j.is_string()) {
    YAML::Node out(j.get<std::string>());
    out.SetTag("!");
    return out;
  }
  return YAML::Node(YAML::NodeType::Null);
}

// env.mujoco: names to scalars or lists of scalars, kept as the config
// wrote them; load_parsed checks them against the task's arguments.
field mujoco_settings(const std::string& key, std::map<std::string, envs::mujoco_setting>& target,
                      const std::string& help) {
  return {key, "mapping", "the task's keyword arguments (troupe envs --describe TASK)", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            target.clear();
            if (n.IsNull()) return;
            if (!n.IsMap()) fail(where, key, "expected a mapping of names to values, got " + scalar_text(n));
            for (const auto& item : n) {
              if (!item.first.IsScalar()) fail(where, key, "expected plain names as keys");
              envs::mujoco_setting s;
              const YAML::Node& value = item.second;
              if (value.IsScalar()) {
                s.scalars.push_back(value.Scalar());
              } else if (value.IsSequence()) {
                s.list = true;
                for (const auto& v : value) {
                  if (!v.IsScalar()) fail(where, key + "." + item.first.Scalar(), "expected a list of scalars");
                  s.scalars.push_back(v.Scalar());
                }
              } else {
                fail(where, key + "." + item.first.Scalar(), "expected a scalar or a list, got " + scalar_text(value));
              }
              target[item.first.Scalar()] = s;
            }
          },
          [&target] {
            YAML::Node out(YAML::NodeType::Map);
            for (const auto& [name, s] : target) {
              if (!s.list) {
                out[name] = s.scalars.empty() ? std::string() : s.scalars.front();
                continue;
              }
              YAML::Node list(YAML::NodeType::Sequence);
              for (const auto& v : s.scalars) list.push_back(v);
              out[name] = list;
            }
            return out;
          }};
}

// A mapping kept as JSON object text (env.kwargs).
field json_mapping(const std::string& key, std::string& target, const std::string& help) {
  return {key, "mapping", "any mapping of names to values", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (n.IsNull()) {
              target = "{}";
              return;
            }
            if (!n.IsMap()) fail(where, key, "expected a mapping of names to values, got " + scalar_text(n));
            long budget = 100000;
            try {
              target = json_of(n, budget).dump();
            } catch (const not_json& e) {
              fail(where, key, e.what());
            }
          },
          [&target] { return yaml_of(nlohmann::json::parse(target)); }};
}

constexpr double inf = std::numeric_limits<double>::infinity();

std::vector<field> fields_of(run_config& c) {
  return {
      file_name("run.name", c.run.name, "name of the run; the run directory is runs/<name>-<timestamp>"),
      integer("run.seed", c.run.seed, 0, std::numeric_limits<int>::max(), "seeds the network, the environments and action sampling"),
      number("run.stop.mean_return", c.run.stop.mean_return, -inf, inf, false, "stop when the mean return of the last run.stop.window episodes reaches this"),
      integer("run.stop.window", c.run.stop.window, 1, 100000, "episodes in the mean-return window"),
      integer("run.stop.confirm_episodes", c.run.stop.confirm_episodes, 0, 100000, "0: the window's mean decides; N: once it reaches mean_return, N fresh episodes of the current parameters must score it too (the window mixes older versions)"),
      integer("run.stop.env_steps", c.run.stop.env_steps, 0, std::numeric_limits<long long>::max(), "stop after this many env steps (0: no limit)"),
      number("run.stop.wall_seconds", c.run.stop.wall_seconds, 0, inf, false, "stop after this many seconds (0: no limit)"),
      env_id("env.id", c.env.id, "the environment to train on: a registered id (troupe envs), a Python environment (python:MODULE:CALLABLE calls MODULE.CALLABLE(**env.kwargs); gymnasium:ENV_ID calls gymnasium.make(ENV_ID, **env.kwargs)) or a compiled plugin (plugin:PATH.so, see include/troupe/env_plugin.h)"),
      integer("env.envs_per_agent", c.env.envs_per_agent, 1, 4096, "environments each agent steps; one predict request covers all of them"),
      optional_text("env.python", c.env.python, "Python environments: the interpreter their processes run (empty: python3 on PATH if it has numpy, else /usr/bin/python3)"),
      text_list("env.python_path", c.env.python_path, "Python environments: directories put before sys.path (relative ones from the current directory)"),
      json_mapping("env.kwargs", c.env.kwargs, "Python environments: keyword arguments of the callable or gymnasium.make (render_mode: rgb_array lets troupe view and --view draw it); plugins: their options, as a JSON object"),
      integer("env.processes_per_agent", c.env.processes_per_agent, 1, 64, "Python environments: processes each agent's environments are spread over, stepped concurrently"),
      int_list("env.observe", c.env.observe, 0, 1 << 24, "keep only these elements (flat indices, in this order) of a Box observation, for partial observability ([]: all of it)", /*may_be_empty=*/false),
      number("env.minatar.sticky_action_prob", c.env.minatar.sticky_action_prob, 0, 1, false, "MinAtar: probability that the previous action repeats"),
      boolean("env.minatar.full_action_set", c.env.minatar.full_action_set, "MinAtar: all six actions instead of the game's minimal set"),
      boolean("env.minatar.difficulty_ramping", c.env.minatar.difficulty_ramping, "MinAtar: games speed up as they go on"),
      mujoco_settings("env.mujoco", c.env.mujoco, "MuJoCo tasks (HalfCheetah-v4, ...): Gymnasium v4's keyword arguments by name, e.g. env.mujoco.ctrl_cost_weight: 0.2 or env.mujoco.healthy_z_range: [0.7, .inf]; each task takes its own, with v4's defaults (troupe envs --describe TASK lists them)"),
      boolean("env.normalize.observation", c.normalize.observation, "normalise observations by their running mean and variance (kept with the parameters, updated from the samples trained on, saved in checkpoints; eval, play, the viewer and workers use them) and clip them to +-env.normalize.clip_observation; not with several devices"),
      boolean("env.normalize.reward", c.normalize.reward, "for learning, divide rewards by the running standard deviation of the discounted return (algo.gamma) and clip them to +-env.normalize.clip_reward; the metrics keep the true returns"),
      number("env.normalize.clip_observation", c.normalize.clip_observation, 0, inf, true, "normalised observations are clipped to +-this"),
      number("env.normalize.clip_reward", c.normalize.clip_reward, 0, inf, true, "normalised rewards are clipped to +-this"),
      number("env.normalize.epsilon", c.normalize.epsilon, 0, 1, true, "added to a variance before its square root"),
      integer("agents.count", c.agents.count, 0, 1024, "agent actors on the learner's node, each on its own thread (0 only with troupe serve: workers do all the acting)"),
      integer("agents.max_restarts", c.agents.max_restarts, 0, 1000000, "agent failures (an environment that throws, say) survived by restarting the agent; one more stops the run with an error"),
      boolean("agents.batch_scheduling", c.agents.batch_scheduling, "agent threads under SCHED_BATCH: an agent woken by a reply does not preempt the model-owner or learner that woke it (faster; replies wait up to a scheduler tick longer)"),
      choice("algo.kind", c.algo.kind, {{"a3c", algo::algo_kind::a3c}, {"ppo", algo::algo_kind::ppo}}, "a3c: each batch of rollouts trains once, in one update; ppo: each batch trains for algo.ppo.epochs epochs of algo.ppo.minibatches clipped updates (asynchronous PPO: the ratio is taken against the policy that acted)"),
      number("algo.gamma", c.algo.gamma, 0, 1, false, "discount factor"),
      integer("algo.n_steps", c.algo.n_steps, 1, 10000, "env steps per rollout and environment (the n of n-step returns)"),
      integer("algo.batch_rollouts", c.algo.batch_rollouts, 1, 65536, "rollouts the learner gathers (from any agents, in arrival order) and trains as one batch; a rollout is acknowledged when its batch has trained, so agents.count x algo.max_rollouts_in_flight (per device) must reach it"),
      number("algo.lr", c.algo.lr, 0, 1, true, "learning rate"),
      choice("algo.lr_schedule", c.algo.lr_schedule, {{"constant", algo::lr_schedule_kind::constant}, {"linear", algo::lr_schedule_kind::linear}}, "constant, or linear: annealed from algo.lr to 0 over run.stop.env_steps (which must be set)"),
      choice("algo.optimizer", c.algo.optimizer, {{"rmsprop", algo::optimizer_kind::rmsprop}, {"adam", algo::optimizer_kind::adam}}, "optimiser (default: rmsprop for a3c, adam for ppo)"),
      number("algo.entropy_coef", c.algo.entropy_coef, 0, inf, false, "weight of the entropy bonus"),
      number("algo.value_coef", c.algo.value_coef, 0, inf, false, "weight of the value loss"),
      number("algo.max_grad_norm", c.algo.max_grad_norm, 0, inf, false, "clip the gradient's global norm to this (0: no clipping)"),
      number("algo.rmsprop_alpha", c.algo.rmsprop_alpha, 0, 1, true, "RMSprop smoothing constant"),
      number("algo.optimizer_eps", c.algo.optimizer_eps, 0, 1, true, "optimiser epsilon: the gradient scale below which RMSprop and Adam do not scale a gradient up (configs/cartpole.yaml says why it uses 0.01)"),
      integer("algo.max_rollouts_in_flight", c.algo.max_rollouts_in_flight, 1, 1024, "per agent: rollouts sent but not yet trained before the agent pauses; bounds the policy lag"),
      integer("algo.rollout_budget", c.algo.rollout_budget, 0, 1 << 20, "rollouts in flight at once (being collected, or waiting to train), all agents of a learner together, local and cluster workers': agents beyond it wait their turn, so the policy lag does not grow with agents.count (0: 2 x algo.batch_rollouts, at least 4)"),
      integer("algo.max_policy_lag", c.algo.max_policy_lag, 0, 1 << 30, "a rollout whose oldest step is more than this many parameter versions behind when its turn to train comes is dropped (counted in samples_dropped and summary.json's learner.samples_stale; 0: 8 batches' updates, i.e. 8 for a3c, 8 x algo.ppo.epochs x algo.ppo.minibatches for ppo)"),
      choice("algo.correction", c.algo.correction, {{"none", algo::correction_kind::none}, {"vtrace", algo::correction_kind::vtrace}}, "off-policy correction for the policy lag (default: vtrace for a3c, unless algo.gae_lambda < 1 asks for GAE)"),
      number("algo.vtrace.rho_bar", c.algo.vtrace_rho_bar, 0, inf, true, "V-trace: clip of the importance weight of each TD error"),
      number("algo.vtrace.c_bar", c.algo.vtrace_c_bar, 0, inf, true, "V-trace: clip of the trace coefficients"),
      number("algo.gae_lambda", c.algo.gae_lambda, 0, 1, false, "generalised advantage estimation's lambda (1: plain n-step returns; ignored with vtrace)"),
      integer("algo.ppo.epochs", c.algo.ppo.epochs, 1, 1000, "PPO: passes over each batch"),
      integer("algo.ppo.minibatches", c.algo.ppo.minibatches, 1, 1 << 20, "PPO: minibatches per epoch, each one update (a recurrent policy's are of whole environment sequences, so at most algo.batch_rollouts x env.envs_per_agent)"),
      number("algo.ppo.clip", c.algo.ppo.clip, 0, 10, true, "PPO: the probability ratio's clip range, [1 - clip, 1 + clip]"),
      number("algo.ppo.value_clip", c.algo.ppo.value_clip, 0, inf, false, "PPO: > 0 clips the value's change from the batch's start to +-this in the value loss (0: no value clipping)"),
      number("algo.ppo.target_kl", c.algo.ppo.target_kl, 0, inf, false, "PPO: > 0 ends a batch's epochs early once an epoch's mean approximate KL from the acting policy exceeds this (0: all epochs)"),
      choice("algo.ppo.targets", c.algo.ppo.targets, {{"gae", algo::ppo_targets_kind::gae}, {"vtrace", algo::ppo_targets_kind::vtrace}}, "PPO: advantages and value targets by GAE (algo.gae_lambda), or by V-trace, which corrects them for the policy lag (algo.vtrace.*)"),
      boolean("algo.ppo.normalize_advantages", c.algo.ppo.normalize_advantages, "PPO: normalise the advantages of each minibatch to mean 0 and standard deviation 1"),
      number("algo.reward_scale", c.algo.reward_scale, 0, inf, true, "rewards are multiplied by this for learning (metrics show the true return)"),
      text("model.kind", c.model.kind, {"mlp", "cnn"}, "network kind: an MLP (model.activation), or a 3x3 convolution (16 channels) then ReLU layers for H x W x C observations"),
      boolean("model.shared_trunk", c.model.shared_trunk, "policy and value heads share one trunk (false: the value head gets its own)"),
      number("model.log_std_init", c.model.log_std_init, -20, 5, false, "Gaussian policies: initial log standard deviation of the actions"),
      int_list("model.hidden", c.model.hidden, 1, 65536, "widths of the hidden layers"),
      text("model.activation", c.model.activation, {"tanh", "relu"}, "activation of an mlp's hidden layers (a cnn's are ReLU); relu is several times cheaper to compute on a CPU"),
      text("model.recurrent.kind", c.model.recurrent.kind, {"none", "lstm", "gru"}, "a recurrent core between the trunk and the heads (one state per environment, reset at every episode start; trained by backpropagation through each rollout); needs model.shared_trunk: true"),
      integer("model.recurrent.size", c.model.recurrent.size, 1, 4096, "units of the recurrent core"),
      integer("batching.max_batch", c.batching.max_batch, 1, 1 << 20, "observations per forward pass at most"),
      integer("batching.max_wait_us", c.batching.max_wait_us, 0, 1000000, "a batch that is not full waits this long for more requests (0: flush as soon as none is waiting)"),
      integer("batching.reply_threads", c.batching.reply_threads, 0, 64, "threads that help the model-owner send replies (each reply wakes an agent's thread); 0: " + batching_config::automatic_reply_threads()),
      boolean("batching.lane", c.batching.lane, "agents in the model-owner's process ask it through its lane (a slot per agent, one futex wake per reply) rather than by an actor message each way; false: by messages, as a cluster worker's agents do"),
      device_list("devices", c.devices, "one parameter replica (model-owner and learner) per entry; agents are spread over them round-robin; [cpu, cpu] runs two replicas on the CPU"),
      integer("replicas.max_lag", c.replicas.max_lag, 1, 1000000, "with several devices: no replica is ever more than this many of another replica's own updates behind it (a replica that would get further ahead waits)"),
      number("checkpoint.every_seconds", c.checkpoint.every_seconds, 0, inf, false, "seconds between checkpoints (0: only at the end)"),
      integer("checkpoint.keep", c.checkpoint.keep, 1, 1000, "newest checkpoints kept in the run directory"),
      integer("checkpoint.best.episodes", c.checkpoint.best.episodes, 0, 100000, "the run keeps its best policy in RUN/checkpoints/best.pt: now and then this many fresh episodes of the current parameters are played (sampled actions), and parameters that score at least as well as every evaluation before replace it (a target's confirmation counts too); eval, play and export take --best (0: no best.pt)"),
      number("checkpoint.best.time_share", c.checkpoint.best.time_share, 0, 1, true, "at most this share of the run's wall time goes to the evaluations of checkpoint.best.episodes"),
      boolean("log.progress", c.log.progress, "print a progress line"),
      number("log.progress_seconds", c.log.progress_seconds, 0.05, 3600, false, "seconds between progress lines and metrics.csv rows"),
      optional_text("cluster.token", c.cluster.token, "troupe serve: the shared secret workers must present (else --token, or TROUPE_CLUSTER_TOKEN; else a random one is printed); also the frame stream's (--view-port) unless --view-token says otherwise; never sent to workers nor written to the run directory"),
      optional_text("cluster.tls.certificate", c.cluster.tls.certificate, "troupe serve, and the frame stream (--view-port): PEM certificate of this node; with key and ca, workers and viewers connect over TLS"),
      optional_text("cluster.tls.key", c.cluster.tls.key, "troupe serve: PEM private key of cluster.tls.certificate"),
      optional_text("cluster.tls.ca", c.cluster.tls.ca, "troupe serve: PEM CA certificate that workers' certificates must be signed by"),
      integer("cluster.max_connections", c.cluster.limits.max_connections, 1, 1000000, "connections the cluster port (and the frame stream, each) keeps at once; more are closed at once"),
      integer("cluster.max_connections_per_host", c.cluster.limits.max_connections_per_host, 1, 1000000, "of those, from one address"),
      number("cluster.handshake_timeout_s", c.cluster.limits.handshake_timeout_s, 0, 3600, true, "a connection that has not completed its handshake by then is closed"),
      number("cluster.idle_timeout_s", c.cluster.limits.idle_timeout_s, 10, 86400, false, "a connection silent this long, or holding a message begun this long ago, is closed (Troupe's peers send a heartbeat every 5 s)"),
      integer("cluster.max_message_bytes", c.cluster.limits.max_message_bytes, 1024, 4294967295LL, "a peer's message larger than this closes its connection before it is read (CAF would allocate its size up front)"),
      boolean("log.plot", c.log.plot, "after the run, draw RUN_DIR/curves.png with scripts/plot.py (needs python3 with matplotlib)"),
  };
}

const std::vector<std::string> required_keys = {"run.name", "env.id"};

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& key, const std::vector<field>& fields) {
  std::string best;
  size_t best_distance = 4;  // suggest only close matches
  for (const auto& f : fields) {
    const size_t d = edit_distance(key, f.key);
    if (d < best_distance) best_distance = d, best = f.key;
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

void read_mapping(const YAML::Node& map, const std::string& prefix, std::vector<field>& fields,
                  const origin& from, std::set<std::string>& seen) {
  std::set<std::string> in_this_mapping;
  for (const auto& item : map) {
    if (!item.first.IsScalar())
      throw config_error(from.at(prefix, item.first) + ": keys must be plain strings");
    const std::string key = prefix.empty() ? item.first.Scalar() : prefix + "." + item.first.Scalar();
    const std::string where = from.at(key, item.first);
    // yaml-cpp keeps one of two equal keys silently; a user meant something.
    if (!in_this_mapping.insert(item.first.Scalar()).second)
      fail(where, key, "duplicate key in the same mapping");
    auto exact = std::find_if(fields.begin(), fields.end(), [&](const field& f) { return f.key == key; });
    if (exact != fields.end()) {
      exact->read(item.second, from.at(key, item.second));
      seen.insert(key);
      continue;
    }
    const bool is_section = std::any_of(fields.begin(), fields.end(), [&](const field& f) {
      return f.key.compare(0, key.size() + 1, key + ".") == 0;
    });
    if (!is_section) fail(where, key, "unknown key" + suggestion(key, fields));
    if (!item.second.IsMap())
      fail(from.at(key, item.second), key, "expected a mapping of keys, got " + scalar_text(item.second));
    read_mapping(item.second, key, fields, from, seen);
  }
}

YAML::Node parse_text(const std::string& content, const std::string& path);

YAML::Node parse_file(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) throw config_error(path + ": no such config file");
  if (S_ISDIR(info.st_mode)) throw config_error(path + ": is a directory, expected a YAML config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(path + ": cannot be read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_text(buffer.str(), path);
}

// Where `text` stops being UTF-8 (std::string::npos: nowhere). YAML is
// Unicode text, and what a config holds goes into JSON (env.kwargs, the
// checkpoints' metadata), which takes nothing else.
size_t utf8_error_at(const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (length == 0 || i + length > text.size()) return i;
    for (size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return i;
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF.
    const auto c1 = static_cast<unsigned char>(length > 1 ? text[i + 1] : 0);
    if ((length == 2 && c < 0xc2) || (length == 3 && c == 0xe0 && c1 < 0xa0) ||
        (length == 3 && c == 0xed && c1 >= 0xa0) || (length == 4 && c == 0xf0 && c1 < 0x90) ||
        (length == 4 && (c > 0xf4 || (c == 0xf4 && c1 >= 0x90))))
      return i;
    i += length;
  }
  return std::string::npos;
}

// "L:C", the line and column of byte `offset` (columns count bytes).
std::string position_of(const std::string& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

YAML::Node parse_text(const std::string& content, const std::string& path) {
  if (content.find('\0') != std::string::npos)
    throw config_error(path + ": is not a text file (it contains NUL bytes)");
  if (const size_t bad = utf8_error_at(content); bad != std::string::npos)
    throw config_error(path + ":" + position_of(content, bad) + ": is not UTF-8 text (byte " +
                       std::to_string(static_cast<unsigned char>(content[bad])) + ")");
  try {
    YAML::Node root = YAML::Load(content);
    if (root.IsNull()) throw config_error(path + ": is empty, expected a mapping of config keys");
    if (!root.IsMap())
      throw config_error(path + ":1:1: expected a mapping of config keys at the top level, got " +
                         scalar_text(root));
    return root;
  } catch (const YAML::ParserException& e) {
    throw config_error(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                       std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
}

// Puts an override's value at its dotted path, creating sections on the way.
void apply_override(YAML::Node& root, const std::string& assignment, origin& from) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw config_error("--set " + assignment + ": expected dotted.key=value");
  const std::string key = assignment.substr(0, eq);
  if (utf8_error_at(assignment) != std::string::npos)
    throw config_error("--set " + key + ": is not UTF-8 text");
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw config_error("--set " + key + ": the value is not valid YAML: " + e.msg);
  }
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string part; std::getline(ss, part, '.');) {
    if (part.empty()) throw config_error("--set " + key + ": empty part in the key path");
    parts.push_back(part);
  }
  YAML::Node node = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = node[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      node[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = node[parts[i]];
    } else if (!next.IsMap()) {
      throw config_error("--set " + key + ": '" + parts[i] + "' is not a section");
    }
    node.reset(next);
  }
  node[parts.back()] = value;
  from.overridden.insert(key);
}

}  // namespace

// What the keys of the algorithm mean together: PPO's defaults and the
// combinations that cannot run.
static void check_algo(run_config& config, const std::string& path, const std::set<std::string>& seen) {
  algo::algo_config& a = config.algo;
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw config_error(path + ": key '" + key + "': " + what);
  };
  const bool ppo = a.kind == algo::algo_kind::ppo;
  if (ppo && !seen.count("algo.optimizer")) a.optimizer = algo::optimizer_kind::adam;
  // A3C trains at a policy lag of a few versions at least (agents act while
  // their rollouts wait): V-trace by default (docs/algorithms.md has the
  // measurements), unless the config asks for GAE, which V-trace replaces.
  if (!ppo && !seen.count("algo.correction") && a.gae_lambda >= 1.0)
    a.correction = algo::correction_kind::vtrace;
  if (a.lr_schedule == algo::lr_schedule_kind::linear && config.run.stop.env_steps == 0)
    fail("algo.lr_schedule", "linear anneals the learning rate over run.stop.env_steps, which is 0 (no limit): set it");
  if (ppo && a.correction != algo::correction_kind::none)
    fail("algo.correction", "is A3C's; PPO corrects for the policy lag with algo.ppo.targets: vtrace");
  if (ppo) {
    const bool recurrent = config.model.recurrent.enabled();
    const std::int64_t items = std::int64_t(a.batch_rollouts) * config.env.envs_per_agent *
                               (recurrent ? 1 : a.n_steps);
    if (a.ppo.minibatches > items)
      fail("algo.ppo.minibatches", std::to_string(a.ppo.minibatches) + " minibatches of a batch of " +
                                       std::to_string(items) + (recurrent ? " environment sequences" : " samples") +
                                       " (algo.batch_rollouts x env.envs_per_agent" + (recurrent ? "" : " x algo.n_steps") +
                                       "): at most " + std::to_string(items));
  }
  if (config.normalize.observation && config.devices.size() > 1)
    fail("env.normalize.observation", "each of several devices' replicas would keep statistics of its own: use one device");
}

// env.mujoco against the MuJoCo task's own arguments, each blamed where it
// was written. Other environments ignore env.mujoco, as they do env.minatar.
static void check_mujoco(const run_config& config, const YAML::Node& root, const origin& from) {
  const envs::mujoco::task_info* task = envs::mujoco::find_task(config.env.id);
  if (!task) return;
  for (const auto& [name, setting] : config.env.mujoco) {
    const std::string why = envs::mujoco::setting_problem(task->id, task->kwargs, name, setting);
    if (why.empty()) continue;
    const std::string key = "env.mujoco." + name;
    const YAML::Node node = root["env"]["mujoco"][name];
    fail(from.at(key, node), key, why);
  }
}

// Reads and validates a parsed config; `path` names it in error messages.
static run_config load_parsed(YAML::Node root, const std::string& path,
                                      const std::vector<std::string>& overrides);

run_config load_config_text(const std::string& text, const std::string& origin,
                            const std::vector<std::string>& overrides) {
  return load_parsed(parse_text(text, origin), origin, overrides);
}

run_config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load_parsed(parse_file(path), path, overrides);
}

static run_config load_parsed(YAML::Node root, const std::string& path,
                                      const std::vector<std::string>& overrides) {
  origin from{path, {}};
  for (const auto& o : overrides) apply_override(root, o, from);
  run_config config;
  auto fields = fields_of(config);
  std::set<std::string> seen;
  read_mapping(root, "", fields, from, seen);
  for (const auto& key : required_keys)
    if (!seen.count(key)) throw config_error(path + ": missing required key '" + key + "'");
  if (config.model.recurrent.enabled() && !config.model.shared_trunk)
    throw config_error(path + ": key 'model.recurrent.kind': a recurrent core needs model.shared_trunk: true");
  if (const std::string problem = config.cluster.tls.problem(); !problem.empty())
    throw config_error(path + ": cluster.tls " + problem);
  check_algo(config, path, seen);
  check_mujoco(config, root, from);
  return config;
}

namespace {
// Emits `node` as yaml-cpp would, except that strings tagged "!" (see
// yaml_of) are double-quoted: yaml-cpp's own emitter would write them plain.
void emit(YAML::Emitter& out, const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      out << YAML::BeginMap;
      for (const auto& item : node) {
        out << YAML::Key;
        emit(out, item.first);
        out << YAML::Value;
        emit(out, item.second);
      }
      out << YAML::EndMap;
      break;
    case YAML::NodeType::Sequence:
      out << YAML::BeginSeq;
      for (const auto& item : node) emit(out, item);
      out << YAML::EndSeq;
      break;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") out << YAML::DoubleQuoted;
      out << node.Scalar();
      break;
    default:
      out << YAML::Null;
  }
}
}  // namespace

envs::env_config load_env_options(const std::string& id, const std::vector<std::string>& overrides) {
  YAML::Node root(YAML::NodeType::Map);
  root["run"]["name"] = "env";
  root["env"]["id"] = id;
  for (const auto& o : overrides)
    if (o.compare(0, 4, "env.") != 0)
      throw config_error("--set " + o + ": only env.* keys apply to an environment id");
  return load_parsed(root, "ENV_ID", overrides).env;
}

std::string to_yaml(const run_config& config) {
  run_config copy = config;
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& f : fields_of(copy)) {
    std::vector<std::string> parts;
    std::stringstream ss(f.key);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    YAML::Node node = root;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (!node[parts[i]]) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
      YAML::Node next = node[parts[i]];
      node.reset(next);
    }
    const YAML::Node value = f.write();
    if (value.IsNull()) continue;  // not set: the default applies when read back
    node[parts.back()] = value;
  }
  YAML::Emitter out;
  emit(out, root);
  return std::string(out.c_str()) + "\n";
}

envs::env_spec env_spec_for(const run_config& config, const std::string& origin) {
  try {
    return envs::spec_of(config.env);
  } catch (const envs::env_key_error& e) {
    throw config_error(origin + ": key '" + e.key + "': " + e.what());
  }
}

std::string describe_config() {
  run_config defaults;
  std::ostringstream out;
  for (const auto& f : fields_of(defaults)) {
    YAML::Emitter value;
    value << YAML::Flow << f.write();
    out << f.key << "\n"
        << "  type:    " << f.type << "\n"
        << "  default: " << value.c_str() << "\n"
        << "  allowed: " << f.range << "\n"
        << "  meaning: " << f.help << "\n";
  }
  return out.str();
}

std::string unfillable_batch(const run_config& config) {
  const int replicas = static_cast<int>(config.devices.size());
  const int agents = config.agents.count / replicas;  // the replica with the fewest
  const int most = agents * config.algo.max_rollouts_in_flight;
  if (most >= config.algo.batch_rollouts) return "";
  return "algo.batch_rollouts " + std::to_string(config.algo.batch_rollouts) +
         ": a batch can never fill: a replica's " + std::to_string(agents) +
         " agents (agents.count / devices) send at most " + std::to_string(most) +
         " rollouts (x algo.max_rollouts_in_flight " + std::to_string(config.algo.max_rollouts_in_flight) +
         ") before they wait for their batch to train";
}

}  // namespace troupe::actors
