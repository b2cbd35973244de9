#include "run/trained_model.hpp"

#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "run/config_loader.hpp"
#include "run/component_configs.hpp"
#include "run/run_directory.hpp"

namespace troupe::run {

namespace {

// A population's member: "member_N", or the best one (summary.json's
// pbt.best_member; before the run has a summary, pbt.json's best score at
// the members' last decisions; else member 0).
std::string member_run_dir(const std::string& run_dir, int population, const std::string& policy) {
  const auto folder = [&](int m) { return run_dir + "/members/" + std::to_string(m); };
  if (!policy.empty()) {
    const std::string prefix = "member_";
    int m = -1;
    if (policy.compare(0, prefix.size(), prefix) == 0) try {
        m = std::stoi(policy.substr(prefix.size()));
      } catch (const std::exception&) {
      }
    if (m < 0 || m >= population)
      throw config_error(run_dir + ": " + (m < 0 && policy.rfind(prefix, 0) != 0 ? "--policy " + policy + ": a population's members are chosen with --member N" : "--member " + policy.substr(prefix.size()) + ": the population has members 0 to " + std::to_string(population - 1)));
    return folder(m);
  }
  const auto read = [](const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
  };
  const nlohmann::json summary = read(run_directory{run_dir}.summary_file());
  if (summary.is_object() && summary.contains("pbt") && summary["pbt"].is_object())
    return folder(summary["pbt"].value("best_member", 0));
  const nlohmann::json state = read(run_dir + "/pbt.json");
  int best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  if (state.is_object() && state.contains("members"))
    for (const auto& m : state["members"])
      if (m.contains("score") && m["score"].is_number() && m["score"].get<double>() > best_score) {
        best_score = m["score"].get<double>();
        best = m.value("id", 0);
      }
  return folder(best);
}

}  // namespace

std::string policy_run_dir(const std::string& run_dir, const std::string& policy) {
  const run_directory dir{run_dir};
  std::error_code ec;
  if (!std::filesystem::exists(dir.config_file(), ec)) {
    if (policy.empty()) return run_dir;
    throw config_error(run_dir + ": --policy " + policy + ": not a run directory (no config.yaml)");
  }
  const run_config config = load_config(dir.config_file());
  if (config.pbt.enabled()) return member_run_dir(run_dir, config.pbt.population, policy);
  if (config.policies.empty()) {
    if (policy.empty()) return run_dir;
    throw config_error(run_dir + ": --policy " + policy + ": the run has one policy, without policies: (leave --policy off)");
  }
  std::string names;
  for (const auto& p : config.policies) {
    if (p.name == policy || policy.empty()) return dir.policy_dir(p.name);
    names += (names.empty() ? "" : ", ") + p.name;
  }
  throw config_error(run_dir + ": --policy " + policy + ": no such policy (the run's are " + names + ")");
}

trained_model load_trained_model(const std::string& given, which_checkpoint which, const std::string& policy) {
  const bool directory = std::filesystem::is_directory(given);
  if (!directory && !policy.empty())
    throw config_error(given + ": --policy takes a run directory, not a checkpoint file");
  const std::string target = directory ? policy_run_dir(given, policy) : given;
  trained_model out;
  out.checkpoint = target;
  if (which == which_checkpoint::best) {
    if (!directory)
      throw config_error(target + ": --best takes a run directory (its checkpoints/best.pt), not a file");
    out.checkpoint = run_directory{target}.checkpoints().best();
    if (!std::filesystem::exists(out.checkpoint))
      throw config_error(target + ": no best policy (" + out.checkpoint +
                         "): the run kept none yet (checkpoint.best.episodes)");
  } else if (directory) {
    out.checkpoint = run_directory{target}.checkpoints().newest();
    if (out.checkpoint.empty())
      throw config_error(target + ": no checkpoint in " + target + "/checkpoints");
  }
  try {
    out.meta = model::read_checkpoint_meta(out.checkpoint);
  } catch (const model::checkpoint_error& e) {
    throw config_error(e.what());
  }
  out.config = load_config_text(out.meta.config_yaml, out.checkpoint + " (its config)");
  out.model = model::make_shared_model(
      net_spec_for(out.config, env_spec_for(out.config, out.checkpoint + " (its config)")),
      out.config.run.seed);
  try {
    model::load_checkpoint(out.checkpoint, *out.model, nullptr);
  } catch (const model::checkpoint_error& e) {
    throw config_error(e.what());
  }
  return out;
}

}  // namespace troupe::run
