#pragma once
// Reads a run config from YAML into run_config, validating every key
// in one place. Errors name the file, line, column, full key path and what was
// expected.
#include <stdexcept>
#include <string>
#include <vector>

#include "run/run_config.hpp"
#include "envs/env.hpp"

namespace troupe::run {

struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `overrides` are "dotted.key=value" strings; each value is parsed as YAML.
run_config load_config(const std::string& path,
                               const std::vector<std::string>& overrides = {});

// The same, from YAML text; `origin` names it in error messages.
run_config load_config_text(const std::string& text, const std::string& origin,
                            const std::vector<std::string>& overrides = {});

// The `env` section for a command that takes an ENV_ID (rollout, view, bench
// envs, envs --describe): the id, with "env.KEY=value" overrides such as
// env.python_path=[dir] or env.kwargs={render_mode: rgb_array}, validated
// as in a config file.
envs::env_config load_env_options(const std::string& id, const std::vector<std::string>& overrides);

// The resolved config, as YAML that load_config reads back to the same values.
std::string to_yaml(const run_config& config);

// Why the agents of a run of this config, on their own (troupe train: no
// cluster workers), could never fill one of the learner's batches; "" when
// they can.
std::string unfillable_batch(const run_config& config);

// One policy of a run as it runs: the run's config with the policy's model
// and algo, its share of agents.count and its seat in the game, without
// policies (what RUN/policies/NAME/config.yaml and its checkpoints hold).
struct policy_plan {
  std::string name;    // empty: the run's only policy, without policies:
  std::string folder;  // its files' folder in the run directory: policies/NAME, members/I ("": the run's own)
  run_config config;
  // Of a game with policies:, the agents (indices, 0 moves first) it
  // plays; empty without.
  std::vector<int> agents = {};
};

// The policies of `config` as they run: without policies:, the run itself;
// with pbt, its members (member_I, in members/I: the run's config each, as
// the population's first draw leaves it to the caller); else each seated by
// the game's agent ids it names (matched against the
// game's own, which a Python game is started once to say). Throws
// config_error naming `origin` and the key: an agent of two policies, a
// policy of none, an agent no policy plays.
std::vector<policy_plan> plan_policies(const run_config& config, const std::string& origin);

// Every key with its type, default, allowed values and meaning.
std::string describe_config();

// The spec of the environments `config` makes (made once, to ask): with
// policies: in a two-player game, its first agent's (each policy's own is
// its seat's: actors::plan_requests). When they cannot be made as
// configured, throws config_error naming `origin`, the key to blame (env.id,
// env.observe, selfplay.enabled for a game whose agents' spaces differ, ...)
// and the reason.
envs::env_spec env_spec_for(const run_config& config, const std::string& origin);

}  // namespace troupe::run
