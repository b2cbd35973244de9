#include "run/config_loader.hpp"

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
#include "envs/games/builtin_opponents.hpp"
#include "envs/mujoco/tasks.hpp"
#include "envs/registry.hpp"
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
  if (config.run.deterministic && config.devices.size() > 1)
    fail("run.deterministic", "several devices' replicas add each other's updates as they arrive, in no fixed order: use one device");
  if (envs::is_two_player_game(config.env.id)) try {
      envs::games::check_opponent_name(config.env.versus.opponent, config.env.id, "env.opponent");
    } catch (const std::invalid_argument& e) {
      fail("env.opponent", e.what());
    }
  if (config.selfplay.enabled) {
    if (!envs::is_two_player_game(config.env.id))
      fail("selfplay.enabled", "self-play needs a two-player game (" + envs::two_player_games() + "); " +
                                   config.env.id + " is not one");
    if (config.run.deterministic)
      fail("selfplay.enabled", "not with run.deterministic: which snapshot an episode draws depends on when the learner adds it");
    if (config.devices.size() > 1)
      fail("selfplay.enabled", "the pool snapshots one learner: use one device");
    if (config.model.recurrent.enabled())
      fail("selfplay.enabled", "opponents are feed-forward for now: a recurrent core's state is not carried across the other seat's moves");
    if (config.selfplay.builtin_probability > 0 && config.selfplay.builtin.empty())
      fail("selfplay.builtin_probability", "is above 0, and selfplay.builtin names no player to draw");
    for (const std::string& name : config.selfplay.builtin) try {
        envs::games::check_opponent_name(name, config.env.id, "selfplay.builtin");
      } catch (const std::invalid_argument& e) {
        fail("selfplay.builtin", e.what());
      }
  }
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
    // Self-play's agents play the game's turn-based form: made once here,
    // so that what is not a game is refused before any agent starts.
    if (config.selfplay.enabled) return envs::game_spec_of(config.env);
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
