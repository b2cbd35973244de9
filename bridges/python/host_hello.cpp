#include "bridges/python/host_hello.hpp"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "envs/env_error.hpp"

namespace troupe::bridges::python {

using envs::env_key_error;
using envs::space;

namespace {

using nlohmann::json;

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

}  // namespace

host_hello read_hello(const std::string& id, const std::string& text) {
  host_hello h;
  try {
    const json hello = json::parse(text);
    h.spec.id = id;
    h.spec.observation = space_of(hello.at("observation"), true);
    h.spec.action = space_of(hello.at("action"), false);
    h.spec.max_episode_steps = hello.at("max_episode_steps").get<int>();
    h.can_render = hello.at("can_render").get<bool>();
    h.spec.has_action_mask = hello.at("action_mask").get<bool>();
    h.spec.observation_mask_key = hello.value("observation_mask_key", std::string());
    if (hello.contains("agents")) h.agents = hello.at("agents").get<std::vector<std::string>>();
    if (hello.contains("agent_spaces"))
      for (const json& own : hello.at("agent_spaces")) {
        env_spec s = h.spec;  // the same id, limit and mask source
        s.observation = space_of(own.at("observation"), true);
        s.action = space_of(own.at("action"), false);
        h.agent_specs.push_back(std::move(s));
      }
    if (!h.agent_specs.empty() && h.agent_specs.size() != h.agents.size())
      throw env_key_error("env.id", "'" + id + "': the environment host described the spaces of " +
                                        std::to_string(h.agent_specs.size()) + " agents for " +
                                        std::to_string(h.agents.size()) + " agents");
  } catch (const json::exception& e) {
    throw env_key_error("env.id", "'" + id + "': the environment host described it unreadably: " + e.what());
  }
  return h;
}

}  // namespace troupe::bridges::python
