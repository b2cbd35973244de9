#include "envs/env_id.hpp"

#include <ostream>
#include <regex>
#include <utility>

#include "envs/env_error.hpp"

namespace troupe::envs {

namespace {

const std::string python_prefix = "python:";
const std::string gymnasium_prefix = "gymnasium:";
const std::string plugin_prefix = "plugin:";

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool dotted_identifier(const std::string& s) {
  static const std::regex pattern("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  return std::regex_match(s, pattern);
}

}  // namespace

env_id::env_id(std::string text) : text_(std::move(text)) {
  const std::string& id = text_;
  if (starts_with(id, python_prefix)) {
    source_ = env_source::python;
    const std::string rest = id.substr(python_prefix.size());
    const size_t colon = rest.find(':');
    if (colon != std::string::npos) {
      module_ = rest.substr(0, colon);
      callable_ = rest.substr(colon + 1);
    }
    if (!dotted_identifier(module_) || !dotted_identifier(callable_))
      throw env_key_error("env.id", "'" + id +
                      "': expected python:MODULE:CALLABLE, such as python:my_envs:make_env "
                      "(MODULE a dotted module name, CALLABLE a name in it)");
  } else if (starts_with(id, gymnasium_prefix)) {
    source_ = env_source::gymnasium;
    target_ = id.substr(gymnasium_prefix.size());
    if (target_.empty())
      throw env_key_error("env.id", "'" + id + "': expected gymnasium:ENV_ID, such as gymnasium:CartPole-v1");
  } else if (starts_with(id, plugin_prefix)) {
    source_ = env_source::plugin;
    target_ = id.substr(plugin_prefix.size());
    if (target_.empty())
      throw env_key_error("env.id", "'" + id + "': expected plugin:PATH, the plugin's shared library");
  }
}

std::ostream& operator<<(std::ostream& out, const env_id& id) { return out << id.text(); }

}  // namespace troupe::envs
