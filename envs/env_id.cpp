#include "envs/env_id.hpp"

#include <regex>

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

env_id_parts parse_env_id(const std::string& id) {
  env_id_parts parts;
  if (starts_with(id, python_prefix)) {
    parts.source = env_source::python;
    const std::string rest = id.substr(python_prefix.size());
    const size_t colon = rest.find(':');
    if (colon != std::string::npos) {
      parts.module = rest.substr(0, colon);
      parts.callable = rest.substr(colon + 1);
    }
    if (!dotted_identifier(parts.module) || !dotted_identifier(parts.callable))
      throw env_key_error("env.id", "'" + id +
                      "': expected python:MODULE:CALLABLE, such as python:my_envs:make_env "
                      "(MODULE a dotted module name, CALLABLE a name in it)");
  } else if (starts_with(id, gymnasium_prefix)) {
    parts.source = env_source::gymnasium;
    parts.target = id.substr(gymnasium_prefix.size());
    if (parts.target.empty())
      throw env_key_error("env.id", "'" + id + "': expected gymnasium:ENV_ID, such as gymnasium:CartPole-v1");
  } else if (starts_with(id, plugin_prefix)) {
    parts.source = env_source::plugin;
    parts.target = id.substr(plugin_prefix.size());
    if (parts.target.empty())
      throw env_key_error("env.id", "'" + id + "': expected plugin:PATH, the plugin's shared library");
  }
  return parts;
}

}  // namespace troupe::envs
