#include "run/config_field.hpp"

#include "algo/hyperparameters.hpp"

#include <algorithm>
#include <limits>
#include <sys/stat.h>

#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"
#include "envs/mujoco/tasks.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::run::fields {

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what) {
  throw config_error(where + ": key '" + key + "': " + what);
}

std::string scalar_text(const YAML::Node& node) {
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "nothing";
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
               const std::string& help, bool may_be_empty) {
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

field number_list(const std::string& key, std::vector<double>& target, double lo, double hi, bool lo_open,
                  const std::string& help) {
  const std::string range = "each in " + range_text(lo, hi, lo_open) + ", at least one";
  return {key, "list of numbers", range, help,
          [&target, key, lo, hi, lo_open, range](const YAML::Node& n, const std::string& where) {
            if (!n.IsSequence() || n.size() == 0)
              fail(where, key, "expected a non-empty list of numbers, got " + scalar_text(n));
            std::vector<double> out;
            for (const auto& item : n) {
              double v;
              if (!scalar_as(item, v) || !std::isfinite(v) || v < lo || v > hi || (lo_open && v == lo))
                fail(where, key, "expected numbers " + range + ", got " + scalar_text(item));
              out.push_back(v);
            }
            target = out;
          },
          [&target] {
            YAML::Node n(YAML::NodeType::Sequence);
            for (double v : target) n.push_back(v);
            return n;
          }};
}

field hyperparam_ranges(const std::string& key, std::map<std::string, hyperparam_range>& target,
                        const std::string& help) {
  return {key, "mapping", "KEY: {min, max, scale: log | linear, init: [lo, hi]}; KEY one of algo/hyperparameters.hpp's", help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            target.clear();
            if (n.IsNull()) return;
            if (!n.IsMap()) fail(where, key, "expected a mapping of algo keys to {min, max, scale, init}, got " + scalar_text(n));
            for (const auto& item : n) {
              const std::string name = item.first.IsScalar() ? item.first.Scalar() : "";
              const std::string at = key + "." + name;
              if (const std::string why = algo::why_not_changeable(name); !why.empty())
                fail(where, at, "cannot change during a run: " + why);
              const YAML::Node& body = item.second;
              if (!body.IsMap()) fail(where, at, "expected {min, max, scale, init}, got " + scalar_text(body));
              hyperparam_range r;
              bool has_min = false, has_max = false, has_init = false;
              for (const auto& part : body) {
                const std::string k = part.first.IsScalar() ? part.first.Scalar() : "";
                double v;
                if (k == "min" || k == "max") {
                  if (!scalar_as(part.second, v) || !std::isfinite(v))
                    fail(where, at + "." + k, "expected a number, got " + scalar_text(part.second));
                  (k == "min" ? r.min : r.max) = v;
                  (k == "min" ? has_min : has_max) = true;
                } else if (k == "scale") {
                  const std::string scale = part.second.IsScalar() ? part.second.Scalar() : "";
                  if (scale != "log" && scale != "linear")
                    fail(where, at + ".scale", "expected log or linear, got " + scalar_text(part.second));
                  r.log = scale == "log";
                } else if (k == "init") {
                  double lo, hi;
                  if (!part.second.IsSequence() || part.second.size() != 2 || !scalar_as(part.second[0], lo) ||
                      !scalar_as(part.second[1], hi) || !std::isfinite(lo) || !std::isfinite(hi))
                    fail(where, at + ".init", "expected [lo, hi], two numbers, got " + scalar_text(part.second));
                  r.init_lo = lo, r.init_hi = hi;
                  has_init = true;
                } else {
                  fail(where, at + "." + k, "unknown key: a range has min, max, scale and init");
                }
              }
              if (!has_min || !has_max) fail(where, at, "needs both min and max");
              if (!(r.min < r.max)) fail(where, at, "min must be below max");
              if (r.log && r.min <= 0) fail(where, at + ".min", "a log scale needs min above 0");
              if (!has_init) r.init_lo = r.min, r.init_hi = r.max;
              if (r.init_lo > r.init_hi || r.init_lo < r.min || r.init_hi > r.max)
                fail(where, at + ".init", "expected [lo, hi] with min <= lo <= hi <= max");
              target[name] = r;
            }
          },
          [&target] {
            YAML::Node out(YAML::NodeType::Map);
            for (const auto& [name, r] : target) {
              YAML::Node range(YAML::NodeType::Map);
              range["min"] = r.min;
              range["max"] = r.max;
              range["scale"] = r.log ? "log" : "linear";
              YAML::Node init(YAML::NodeType::Sequence);
              init.SetStyle(YAML::EmitterStyle::Flow);
              init.push_back(r.init_lo);
              init.push_back(r.init_hi);
              range["init"] = init;
              out[name] = range;
            }
            return out;
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
field env_id(const std::string& key, envs::env_id& target, const std::string& help) {
  std::string range;
  for (const auto& e : catalog::registered_envs()) range += e.id + " | ";
  range += "python:MODULE:CALLABLE | gymnasium:ENV_ID | plugin:PATH.so";
  return {key, "string", range, help,
          [&target, key](const YAML::Node& n, const std::string& where) {
            if (!n.IsScalar() || n.Scalar().empty())
              fail(where, key, "expected a non-empty string, got " + scalar_text(n));
            const std::string id = text_of(n, where, key);
            if (const std::string problem = catalog::env_id_problem(id); !problem.empty())
              fail(where, key, problem);
            target = id;
          },
          [&target] { return YAML::Node(target.text()); }};
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

field name_map(const std::string& key, std::map<std::string, std::string>& target,
               std::vector<std::string> allowed, const std::string& help) {
  std::string choices;
  for (const auto& a : allowed) choices += (choices.empty() ? "" : " | ") + a;
  return {key, "mapping of names to " + choices, "names to " + choices, help,
          [&target, key, allowed, choices](const YAML::Node& n, const std::string& where) {
            target.clear();
            if (n.IsNull()) return;
            std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& m,
                                                                                const std::string& prefix) {
              if (!m.IsMap()) fail(where, key + prefix, "expected a mapping of names to " + choices + ", got " + scalar_text(m));
              for (const auto& item : m) {
                if (!item.first.IsScalar() || item.first.Scalar().empty())
                  fail(where, key + prefix, "expected plain names as keys");
                const std::string name = (prefix.empty() ? "" : prefix.substr(1) + ".") + item.first.Scalar();
                if (item.second.IsMap()) {
                  walk(item.second, "." + name);
                  continue;
                }
                const std::string value = item.second.IsScalar() ? item.second.Scalar() : "";
                if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
                  fail(where, key + "." + name, "expected one of " + choices + ", got " + scalar_text(item.second));
                target[name] = value;
              }
            };
            walk(n, "");
          },
          [&target] {
            YAML::Node out(YAML::NodeType::Map);
            for (const auto& [name, value] : target) out[name] = value;
            return out;
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

}  // namespace troupe::run::fields
