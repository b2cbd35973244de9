#include "run/config_loader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"
#include "envs/mujoco/tasks.hpp"
#include "games/agent_pattern.hpp"
#include "catalog/players.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_keys.hpp"

namespace troupe::run {

using namespace fields;

namespace {


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
  if (a.lr_schedule == algo::lr_schedule_kind::linear && a.lr_schedule_env_steps == 0 &&
      config.run.stop.env_steps == 0)
    fail("algo.lr_schedule",
         "linear anneals the learning rate over algo.lr_schedule_env_steps, or run.stop.env_steps when that is 0, "
         "and both are 0 (no limit): set one");
  if (a.lr_final > a.lr)
    fail("algo.lr_final", "is " + std::to_string(a.lr_final) + ", above algo.lr (" + std::to_string(a.lr) +
                              "): a linear schedule anneals down to it");
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
  if (config.run.deterministic && config.devices.size() > 1)
    fail("run.deterministic", "several devices' replicas add each other's updates as they arrive, in no fixed order: use one device");
  if (catalog::is_versus_game(config.env.id)) try {
      catalog::check_opponent_name(config.env.versus.opponent, config.env.id, "env.opponent");
    } catch (const std::invalid_argument& e) {
      fail("env.opponent", e.what());
    }
  if (config.env.versus.seat == "all") {
    if (catalog::is_turn_based_game(config.env.id) && catalog::is_registered(config.env.id.text()))
      fail("env.seat", "all: " + config.env.id.text() +
                           " is turn-based, one agent moving at a time, so a policy plays one seat of it (first, "
                           "second or alternate); all is for simultaneous games");
  }
}

// selfplay: against the game and the side the policy plays (after
// policies:, whose policies may take sides of any game of several agents).
static void check_selfplay(const run_config& config, const std::string& path) {
  if (!config.selfplay.enabled) return;
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw config_error(path + ": key '" + key + "': " + what);
  };
  if (config.env.versus.seat == "all" && config.env.versus.team.empty())
    fail("env.seat", "all: the policy plays every agent of each game, which leaves no seat for its snapshots "
                     "(self-play plays one seat, first, second or alternate, or a team: env.team)");
  // A team (env.seat all with env.team), or the policies of policies:,
  // may play any game of several agents, snapshots playing the agents
  // outside it (plan_policies checks each policy's side).
  const bool sides = (config.env.versus.seat == "all" || config.policies.size() > 1) && catalog::is_game(config.env.id);
  if (!catalog::is_versus_game(config.env.id) && !sides)
    fail("selfplay.enabled", "self-play needs a game that the policy plays from a seat, its snapshots playing the "
                             "others (" + catalog::versus_games() + "), or a team of a game's agents (env.seat all "
                             "with env.team); " + config.env.id.text() + " is not one");
  if (config.run.deterministic)
    fail("selfplay.enabled", "not with run.deterministic: which snapshot an episode draws depends on when the learner adds it");
  if (config.devices.size() > 1)
    fail("selfplay.enabled", "the pool snapshots one learner: use one device");
  if (config.selfplay.builtin_probability > 0 && config.selfplay.builtin.empty())
    fail("selfplay.builtin_probability", "is above 0, and selfplay.builtin names no player to draw");
  for (const std::string& name : config.selfplay.builtin) try {
      catalog::check_opponent_name(name, config.env.id, "selfplay.builtin");
    } catch (const std::invalid_argument& e) {
      fail("selfplay.builtin", e.what());
    }
}

// env.mujoco against the MuJoCo task's own arguments, each blamed where it
// was written. Other environments ignore env.mujoco, as they do env.minatar.
static void check_mujoco(const run_config& config, const YAML::Node& root, const origin& from) {
  const envs::mujoco::task_info* task = envs::mujoco::find_task(config.env.id.text());
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

namespace {

// Puts `over`'s keys into `target`, section by section.
void merge_into(YAML::Node target, const YAML::Node& over) {
  for (const auto& item : over) {
    const std::string key = item.first.Scalar();
    YAML::Node existing = target[key];
    if (item.second.IsMap() && existing.IsMap())
      merge_into(existing, item.second);
    else
      target[key] = item.second;
  }
}

bool is_policy_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

}  // namespace

// policies: each policy's config is the run's with the policy's model and
// algo keys over it, read and checked as a whole config is.
static std::vector<policy_config> read_policies(const YAML::Node& node, const YAML::Node& root,
                                                const std::string& path, const origin& from) {
  const std::string key = "policies";
  if (node.IsMap() && node.size() == 0) return {};  // {}: the run's one policy (--set 'policies={}' clears a config's)
  if (!node.IsMap())
    fail(from.at(key, node), key, "expected a mapping of policy names to {agents, model, algo}, got " + scalar_text(node));
  std::vector<policy_config> out;
  std::set<std::string> names;
  for (const auto& item : node) {
    const std::string name = item.first.IsScalar() ? item.first.Scalar() : "";
    const std::string at = key + "." + name;
    if (!is_policy_name(name))
      fail(from.at(key, item.first), key, "a policy's name is 1-64 letters, digits, '_' or '-' (it names a folder), got " + scalar_text(item.first));
    if (!names.insert(name).second) fail(from.at(at, item.first), at, "duplicate policy name");
    const YAML::Node& body = item.second;
    if (!body.IsMap()) fail(from.at(at, body), at, "expected a mapping with agents (and model, algo), got " + scalar_text(body));
    policy_config policy;
    policy.name = name;
    YAML::Node merged = YAML::Clone(root);
    // Only its model and algo are read from it: self-play is the run's,
    // checked once with all of its policies.
    if (merged["selfplay"].IsMap()) merged["selfplay"]["enabled"] = false;
    for (const auto& part : body) {
      const std::string k = part.first.IsScalar() ? part.first.Scalar() : "";
      const std::string where = from.at(at + "." + k, part.second);
      if (k == "agents") {
        if (!part.second.IsSequence() || part.second.size() == 0)
          fail(where, at + ".agents", "expected a list of the game's agent ids or patterns (\"player_0\", \"player_*\"), got " + scalar_text(part.second));
        for (const auto& a : part.second) {
          if (!a.IsScalar() || a.Scalar().empty())
            fail(where, at + ".agents", "expected agent ids as plain strings, got " + scalar_text(a));
          policy.agents.push_back(text_of(a, where, at + ".agents"));
        }
      } else if (k == "model" || k == "algo") {
        if (!part.second.IsMap())
          fail(where, at + "." + k, "expected a mapping of " + k + " keys, got " + scalar_text(part.second));
        if (!merged[k].IsMap()) merged[k] = YAML::Node(YAML::NodeType::Map);
        merge_into(merged[k], part.second);
      } else {
        fail(where, at + "." + k, "unknown key: a policy has agents, model and algo");
      }
    }
    if (policy.agents.empty()) fail(from.at(at, body), at + ".agents", "missing: which of the game's agents this policy plays");
    try {
      const run_config own = load_parsed(merged, path, {});
      policy.model = own.model;
      policy.algo = own.algo;
    } catch (const config_error& e) {
      throw config_error(std::string(e.what()) + " (in policy '" + name + "')");
    }
    out.push_back(std::move(policy));
  }
  return out;
}

// What several policies in one run cannot do yet, each refused with its reason.
static void check_policies(const run_config& config, const std::string& path) {
  if (config.policies.size() < 2) return;
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw config_error(path + ": key '" + key + "': " + what);
  };
  if (!catalog::is_game(config.env.id))
    fail("policies", "several policies play a game of several agents (" + catalog::versus_games() +
                         ", Spread-v0), each its own agents; " + config.env.id.text() + " is not one");
  if (config.selfplay.enabled && config.policies.size() > 2)
    fail("selfplay.enabled", "a league per policy is built for two policies, each playing the other's league; " +
                                 std::to_string(config.policies.size()) + " policies would need a league of each other one");
  if (config.run.deterministic) fail("run.deterministic", "not with several policies: their learners train side by side, in no fixed order");
  if (config.devices.size() > 1) fail("devices", "several policies run on one device each for now: list one");
  if (config.agents.count > 0 && config.agents.count < int(config.policies.size()))
    fail("agents.count", std::to_string(config.agents.count) + (config.agents.count == 1 ? " agent" : " agents") +
                             " for " + std::to_string(config.policies.size()) +
                             " policies: each policy needs at least one (agent i plays for policy i mod " +
                             std::to_string(config.policies.size()) + "), or none at all (troupe serve: workers' agents only)");
}

// What a population cannot do, each refused with its reason.
static void check_pbt(const run_config& config, const std::string& path) {
  const pbt_config& p = config.pbt;
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw config_error(path + ": key '" + key + "': " + what);
  };
  if (p.population == 1) fail("pbt.population", "a population has at least 2 members (0: no population-based training)");
  if (!p.enabled()) return;
  if (p.hyperparams.empty()) fail("pbt.hyperparams", "names no hyperparameter to explore");
  if (!config.policies.empty()) fail("pbt.population", "not with policies: (a population of several policies each is not built)");
  if (config.selfplay.enabled) fail("pbt.population", "not with selfplay.enabled yet: a league per member is not built");
  if (config.run.deterministic) fail("pbt.population", "not with run.deterministic: the members train side by side, in no fixed order");
  if (config.devices.size() > 1) fail("pbt.population", "each member runs on one device for now: list one");
  if (p.hyperparams.count("algo.lr") && config.algo.lr_schedule != algo::lr_schedule_kind::constant)
    fail("algo.lr_schedule", "anneals algo.lr, which pbt.hyperparams explores: leave it constant");
  if (p.hyperparams.count("algo.ppo.clip") && config.algo.kind != algo::algo_kind::ppo)
    fail("pbt.hyperparams.algo.ppo.clip", "is PPO's; algo.kind is a3c");
}

static run_config load_parsed(YAML::Node root, const std::string& path,
                                      const std::vector<std::string>& overrides) {
  origin from{path, {}};
  for (const auto& o : overrides) apply_override(root, o, from);
  // Read last, over the rest of the config.
  YAML::Node policies;
  const bool has_policies = static_cast<const YAML::Node&>(root)["policies"].IsDefined();
  if (has_policies) {
    policies = root["policies"];  // the same node, with its marks for error messages
    root.remove("policies");
  }
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
  if (has_policies) config.policies = read_policies(policies, root, path, from);
  check_selfplay(config, path);
  check_policies(config, path);
  check_pbt(config, path);
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

namespace {
// Puts `value` at `dotted_key` under `root`, making its sections.
void put_at(YAML::Node root, const std::string& dotted_key, const YAML::Node& value) {
  std::vector<std::string> parts;
  std::stringstream ss(dotted_key);
  for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
  YAML::Node node = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!node[parts[i]]) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = node[parts[i]];
    node.reset(next);
  }
  node[parts.back()] = value;
}

std::string flow_text(const YAML::Node& value) {
  YAML::Emitter out;
  out << YAML::Flow << value;
  return out.c_str();
}
}  // namespace

std::string to_yaml(const run_config& config) {
  run_config copy = config;
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& f : fields_of(copy)) {
    const YAML::Node value = f.write();
    if (value.IsNull()) continue;  // not set: the default applies when read back
    put_at(root, f.key, value);
  }
  // Each policy's model and algo keys where they differ from the run's.
  for (const policy_config& p : config.policies) {
    YAML::Node policy(YAML::NodeType::Map);
    for (const auto& a : p.agents) policy["agents"].push_back(a);
    run_config own = config;
    own.model = p.model;
    own.algo = p.algo;
    const auto run_fields = fields_of(copy);
    const auto own_fields = fields_of(own);
    for (size_t i = 0; i < own_fields.size(); ++i) {
      const std::string& key = own_fields[i].key;
      const std::string section = key.substr(0, key.find('.'));
      if (section != "model" && section != "algo") continue;
      const YAML::Node value = own_fields[i].write();
      if (!value.IsNull() && flow_text(value) != flow_text(run_fields[i].write())) put_at(policy, key, value);
    }
    root["policies"][p.name] = policy;
  }
  YAML::Emitter out;
  emit(out, root);
  return std::string(out.c_str()) + "\n";
}

envs::env_spec env_spec_for(const run_config& config, const std::string& origin) {
  try {
    // Self-play's agents play the game's own form: made once here, so that
    // what is not a game is refused before any agent starts.
    if (config.selfplay.enabled && config.policies.size() < 2) {
      const catalog::game_agents agents = catalog::game_agents_of(config.env);
      if (agents.spaces_differ())
        throw config_error(origin + ": key 'selfplay.enabled': " + config.env.id.text() + "'s agents " + agents.names[0] +
                           " and " + agents.names[1] +
                           " have different spaces, so a policy cannot play its own snapshots: give each agent a "
                           "policy of its own (policies:) instead");
      if (config.env.versus.seat == "all" && catalog::team_agents(config.env, agents.names).size() == agents.names.size())
        throw config_error(origin + ": key 'env.team': names every agent of " + config.env.id.text() +
                           ", which leaves none for self-play's snapshots to play");
      return catalog::game_spec_of(config.env, agents);
    }
    // Several policies each play their own seat or team, whose spaces may
    // differ (actors::plan_requests reads each); the game is made here to
    // check it.
    if (!config.policies.empty() && catalog::is_game(config.env.id)) {
      const catalog::game_agents agents = catalog::game_agents_of(config.env);
      if (!agents.specs.empty()) return agents.specs.front();
    }
    return catalog::spec_of(config.env);
  } catch (const envs::env_key_error& e) {
    throw config_error(origin + ": key '" + e.key + "': " + e.what());
  }
}

std::vector<policy_plan> plan_policies(const run_config& config, const std::string& origin) {
  if (config.pbt.enabled()) {  // the members: the run's config each, agents.count agents included
    std::vector<policy_plan> members;
    for (int m = 0; m < config.pbt.population; ++m) {
      run_config own = config;
      own.pbt = {};
      members.push_back({"member_" + std::to_string(m), "members/" + std::to_string(m), own});
    }
    return members;
  }
  if (config.policies.empty()) return {{"", "", config}};
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw config_error(origin + ": key '" + key + "': " + what);
  };
  catalog::game_agents game;
  try {
    if (catalog::is_game(config.env.id)) game = catalog::game_agents_of(config.env);
  } catch (const envs::env_key_error& e) {
    throw config_error(origin + ": key '" + e.key + "': " + e.what());
  }
  const std::vector<std::string>& names = game.names;
  if (names.empty()) {
    if (config.policies.size() == 1) {  // a single-agent environment: the one policy plays it
      run_config own = config;
      own.policies.clear();
      own.model = config.policies[0].model;
      own.algo = config.policies[0].algo;
      return {{config.policies[0].name, "policies/" + config.policies[0].name, own}};
    }
    fail("policies", config.env.id.text() + " is not a game of several agents: one policy only");
  }
  std::vector<int> owner(names.size(), -1);
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  std::vector<policy_plan> plans;
  const int count = int(config.policies.size());
  for (int p = 0; p < count; ++p) {
    const policy_config& policy = config.policies[size_t(p)];
    std::vector<size_t> seats;
    for (size_t a = 0; a < names.size(); ++a) {
      bool mine = false;
      for (const auto& pattern : policy.agents) mine = mine || games::agent_matches(pattern, names[a]);
      if (!mine) continue;
      if (owner[a] >= 0)
        fail("policies." + policy.name + ".agents", "the game's agent " + names[a] + " is already policy '" +
                                                        config.policies[size_t(owner[a])].name + "''s: an agent has one policy");
      owner[a] = p;
      seats.push_back(a);
    }
    if (seats.empty())
      fail("policies." + policy.name + ".agents", "names none of the game's agents (" + all + ")");
    run_config own = config;
    own.policies.clear();
    own.model = policy.model;
    own.algo = policy.algo;
    // Agent i of the run plays for policy i mod the number of policies.
    own.agents.count = config.agents.count / count + (p < config.agents.count % count ? 1 : 0);
    if (seats.size() == 1 && (names.size() == 2 || !game.simultaneous)) {
      own.env.versus.seat = games::seat_name(int(seats[0]));
    } else if (names.size() > 2) {
      // Its agents are its team: all of them at once in a simultaneous
      // game, one of them drawn per episode in a turn-based one.
      own.env.versus.seat = game.simultaneous ? "all" : "alternate";
      own.env.versus.team.clear();
      for (size_t a : seats) own.env.versus.team.push_back(names[a]);
    }  // (else a policy of every agent of a two-player game: env.seat's seat)
    policy_plan plan{policy.name, "policies/" + policy.name, own};
    plan.agents.assign(seats.begin(), seats.end());
    plans.push_back(std::move(plan));
  }
  if (count > 1)
    for (size_t a = 0; a < names.size(); ++a)
      if (owner[a] < 0) fail("policies", "no policy plays the game's agent " + names[a] + " (agents are " + all + ")");
  // Each policy's league holds the other's snapshots, which play every
  // agent outside its side; one that draws its seat among its agents would
  // meet its own parameters at its other seats too.
  if (config.selfplay.enabled && count > 1)
    for (const policy_plan& plan : plans)
      if (plan.config.env.versus.seat == "alternate")
        fail("policies." + plan.name + ".agents",
             "with selfplay.enabled a policy plays one seat, or a team of a simultaneous game (its league is the "
             "other policy's snapshots); it names " + std::to_string(plan.agents.size()) + " agents of a turn-based game");
  return plans;
}

std::string describe_config() {
  run_config defaults;
  std::ostringstream out;
  const auto entry = [&out](const std::string& key, const std::string& type, const std::string& value,
                            const std::string& range, const std::string& help) {
    out << key << "\n"
        << "  type:    " << type << "\n"
        << "  default: " << value << "\n"
        << "  allowed: " << range << "\n"
        << "  meaning: " << help << "\n";
  };
  for (const auto& f : fields_of(defaults)) {
    YAML::Emitter value;
    value << YAML::Flow << f.write();
    entry(f.key, f.type, value.c_str(), f.range, f.help);
  }
  entry("policies", "mapping", "{}",
        "NAME: {agents: [ids or patterns], model: {...}, algo: {...}}; NAME is 1-64 letters, digits, _ or -",
        "several named policies in one run (docs/multiagent.md), each with its own model-owner, learner, "
        "optimiser state, normalisers, metrics and checkpoints in RUN/policies/NAME/; agents lists the game's "
        "agent ids it plays (player_0, or a pattern with * such as player_*); model and algo keys given here "
        "apply to this policy only, over the run's own (which apply to all); agent i of agents.count plays for "
        "policy i mod the number of policies; two policies of a two-player game each play one seat against "
        "the other's latest parameters, or with selfplay.enabled against the other's league (its latest "
        "parameters and its snapshots); {} (absent): one policy, the run's own, in RUN/ itself");
  return out.str();
}

std::string unfillable_batch(const run_config& config) {
  // A deterministic run acknowledges every rollout of a round once the round
  // has trained, those left over for a later batch too: every batch fills.
  if (config.run.deterministic) return "";
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

}  // namespace troupe::run
