#pragma once
// One config key: how it is read from YAML (checked, with an error naming
// where and what was expected), written back, and described; and a maker for
// each kind of key (a number in a range, a choice of names, ...). Only the
// config loader's files include this (run/config_keys.cpp lists the keys).
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "envs/env_id.hpp"
#include <yaml-cpp/yaml.h>

#include "envs/env_config.hpp"
#include "run/config_loader.hpp"

namespace troupe::run::fields {

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

// Throws config_error: "WHERE: key 'KEY': WHAT".
[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what);

// A node as an error message shows it: its scalar quoted, or its kind.
std::string scalar_text(const YAML::Node& node);

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

std::string range_text(double lo, double hi, bool lo_open);

field number(const std::string& key, double& target, double lo, double hi, bool lo_open,
             const std::string& help);

field boolean(const std::string& key, bool& target, const std::string& help);

// A string value, refused when it holds a control character: what a config
// names ends up in file names, logs and the run's config.yaml, where a stray
// carriage return is a mistake, and yaml-cpp does not write such characters
// back as it read them (YAML reads CR, NEL and U+2028/9 as line breaks).
std::string text_of(const YAML::Node& n, const std::string& where, const std::string& key);

// A string; `allowed` (when not empty) lists its legal values.
field text(const std::string& key, std::string& target, std::vector<std::string> allowed,
           const std::string& help);

// A name that becomes part of a file name (the run directory's).
field file_name(const std::string& key, std::string& target, const std::string& help);

// A string that may be empty (meaning: not set).
field optional_text(const std::string& key, std::string& target, const std::string& help);

// A list of integers in [lo, hi]; `may_be_empty` false: a list given must
// hold at least one (the default, empty, still means "not set").
field int_list(const std::string& key, std::vector<int>& target, int lo, int hi,
               const std::string& help, bool may_be_empty = true);

field device_list(const std::string& key, std::vector<std::string>& target,
                  const std::string& help);

// env.id: a registered id or one of the prefixed forms, its syntax checked
// (and a plugin's file found) without importing or loading anything.
field env_id(const std::string& key, envs::env_id& target, const std::string& help);

field text_list(const std::string& key, std::vector<std::string>& target, const std::string& help);

// A mapping of names to one of `allowed` each. A name may hold dots: nested
// mappings (what --set a.b.c=x writes) join their keys with ".".
field name_map(const std::string& key, std::map<std::string, std::string>& target,
               std::vector<std::string> allowed, const std::string& help);

// A YAML value as JSON. YAML keeps no types: a quoted scalar is a string,
// a plain one the first of bool, integer, number that reads it, else a string.
// `budget` counts the values it may still make: aliases let a few lines of
// YAML name a tree of billions of them (each alias of an alias doubles it).
nlohmann::json json_of(const YAML::Node& n, long& budget);

// JSON as YAML; strings are tagged so that to_yaml quotes them ("123" stays
// a string when read back).
YAML::Node yaml_of(const nlohmann::json& j);

// env.mujoco: names to scalars or lists of scalars, kept as the config
// wrote them; load_parsed checks them against the task's arguments.
field mujoco_settings(const std::string& key, std::map<std::string, envs::mujoco_setting>& target,
                      const std::string& help);

// A list of numbers, each in [lo, hi] (lo excluded when lo_open), at least one.
field number_list(const std::string& key, std::vector<double>& target, double lo, double hi, bool lo_open,
                  const std::string& help);

// pbt.hyperparams: KEY: {min, max, scale: log | linear, init: [lo, hi]}.
field hyperparam_ranges(const std::string& key, std::map<std::string, hyperparam_range>& target,
                        const std::string& help);

// A mapping kept as JSON object text (env.kwargs).
field json_mapping(const std::string& key, std::string& target, const std::string& help);

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

}  // namespace troupe::run::fields
