#include "actors/evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include "agents/evaluate.hpp"
#include "agents/league/match.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "games/routed_opponents.hpp"
#include "model/checkpoint.hpp"

namespace troupe::actors {

namespace {

struct evaluator_state {
  evaluator_config config;
  std::shared_ptr<model::shared_model> model;
  std::vector<std::shared_ptr<model::shared_model>> others;
  // Made at the first evaluation and kept: a Python environment's processes
  // start once per run, not once per evaluation.
  std::unique_ptr<envs::env_vector> envs;
  // The copy a best_atom evaluation plays, made once.
  std::shared_ptr<model::shared_model> snapshot;
  // A copy of each of config.rivals' parameters, made once and brought up
  // to date as each evaluation starts (before the parameters judged are
  // held: never two critical sections at once, so two policies' evaluators
  // cannot wait on each other).
  std::vector<std::shared_ptr<model::shared_model>> rivals;
  // The score of best.pt: from the file when a resumed run has one.
  std::optional<double> best_return;
  static inline const char* name = "evaluator";
};

using evaluator_pointer = evaluator_actor::stateful_pointer<evaluator_state>;

// Episodes side by side, at most this many at a time.
constexpr int max_parallel = 64;

// What `episodes` fresh episodes of `m` score (sampled actions), or NaN when
// the environment failed: that verdict fails, and fresh environments play
// the next one.
double play(evaluator_state& st, model::shared_model& m, std::int32_t episodes,
            std::uint64_t seed) {
  if (!st.envs) {
    const envs::env_config& env = st.config.env;
    const int count = std::clamp(episodes, 1, max_parallel);
    if (!st.config.rivals.empty())  // the other side's moves sampled, as in training
      st.envs = catalog::make_game_side(env, count, games::parse_seat(env.versus.seat), [&](const envs::env_spec& spec) {
        std::vector<std::unique_ptr<games::opponents>> players;
        std::vector<std::vector<int>> agents_of_player;
        for (size_t q = 0; q < st.rivals.size(); ++q) {
          players.push_back(agents::model_opponents(st.rivals[q], count, spec));
          agents_of_player.push_back(st.config.rivals[q].agents);
        }
        return games::route_by_agent(std::move(players), agents_of_player, spec);
      });
    else
      st.envs = catalog::make_env_vector(env, count);
  }
  try {
    return agents::evaluate(m, *st.envs, episodes, /*greedy=*/false, seed).return_mean;
  } catch (const std::exception& e) {
    st.envs.reset();
    std::cerr << "troupe: an evaluation's environment failed (" << e.what()
              << "); training goes on" << std::endl;
    return std::numeric_limits<double>::quiet_NaN();
  }
}

// The rivals' parameters as they are now, into the copies their moves come from.
void update_rivals(evaluator_state& st) {
  for (size_t q = 0; q < st.config.rivals.size(); ++q) {
    model::shared_model& live = *st.config.rivals[q].model;
    if (st.rivals.size() == q) st.rivals.push_back(model::make_shared_model(model::spec_of(live), 0, "cpu"));
    model::copy_parameters(live, *st.rivals[q]);
  }
}

// Writes `m` as best.pt when `score` is at least the best so far. A write
// that fails (a full disk) keeps the older best.pt and says why.
bool keep_if_best(evaluator_state& st, model::shared_model& m, double score,
                  std::int32_t episodes, model::checkpoint_meta meta) {
  if (st.config.best_path.empty() || !std::isfinite(score)) return false;
  std::lock_guard<std::mutex> lock(st.config.best_gate->mutex);
  if (st.config.best_gate->closed) return false;
  if (st.best_return && score < *st.best_return) return false;
  meta.evaluated_episodes = episodes;
  meta.evaluated_return = score;
  meta.segment = st.config.segment;
  meta.config_yaml = st.config.config_yaml;
  try {
    std::filesystem::create_directories(std::filesystem::path(st.config.best_path).parent_path());
    model::save_checkpoint(st.config.best_path, m, nullptr, meta);
  } catch (const std::exception& e) {
    std::cerr << "troupe: warning: cannot write " << st.config.best_path << ": " << e.what()
              << std::endl;
    return false;
  }
  st.best_return = score;
  return true;
}

// The score best.pt holds, if a resumed run has one that loads.
std::optional<double> score_on_disk(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    const model::checkpoint_meta meta = model::read_checkpoint_meta(path);
    if (meta.evaluated_episodes > 0) return meta.evaluated_return;
  } catch (const std::exception& e) {
    std::cerr << "troupe: warning: " << e.what() << "; a new best.pt will replace it" << std::endl;
  }
  return std::nullopt;
}

evaluator_actor::behavior_type evaluator(evaluator_pointer self,
                                         std::shared_ptr<model::shared_model> model,
                                         evaluator_config config,
                                         std::vector<std::shared_ptr<model::shared_model>> others) {
  auto& st = self->state;
  st.config = std::move(config);
  st.model = std::move(model);
  st.others = std::move(others);
  st.best_return = score_on_disk(st.config.best_path);
  return {
      [=](evaluate_atom, std::int32_t episodes, std::uint64_t seed,
          const model::checkpoint_meta& meta) {
        auto& st = self->state;
        // Training pauses while the episodes play; a passing verdict freezes
        // the parameters, so the run ends with exactly the ones that passed.
        evaluation_report report{0, episodes, 0.0, false, false};
        update_rivals(st);
        report.passed = model::judge_parameters(*st.model, [&](model::shared_model& copy) {
          report.version = model::current_version(copy);
          report.return_mean = play(st, copy, episodes, seed);
          report.best = keep_if_best(st, copy, report.return_mean, episodes, meta);
          return report.return_mean >= st.config.target;
        });
        if (report.passed)
          for (const auto& m : st.others) model::freeze(*m);
        return report;
      },
      [=](best_atom, std::int32_t episodes, std::uint64_t seed, const model::checkpoint_meta& meta) {
        auto& st = self->state;
        if (!st.snapshot)
          st.snapshot = model::make_shared_model(model::spec_of(*st.model), 0, "cpu");
        model::copy_parameters(*st.model, *st.snapshot);
        update_rivals(st);
        evaluation_report report{model::current_version(*st.snapshot), episodes, 0.0, false, false};
        report.return_mean = play(st, *st.snapshot, episodes, seed);
        report.best = keep_if_best(st, *st.snapshot, report.return_mean, episodes, meta);
        return report;
      },
  };
}

}  // namespace

evaluator_actor spawn_evaluator(caf::actor_system& sys, std::shared_ptr<model::shared_model> model,
                                const evaluator_config& config,
                                std::vector<std::shared_ptr<model::shared_model>> other_replicas) {
  return sys.spawn<caf::detached>(evaluator, std::move(model), config, std::move(other_replicas));
}

}  // namespace troupe::actors
