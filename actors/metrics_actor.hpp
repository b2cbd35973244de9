#pragma once
// The metrics actor: collects agents' episode reports and the learner's
// update reports, prints a progress line, appends metrics.csv, and asks the
// coordinator to stop when a stop condition is met.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/evaluator.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/pbt.hpp"
#include "actors/model_owner.hpp"
#include "agents/league/league.hpp"
#include "run/run_config.hpp"
#include "model/checkpoint.hpp"

namespace troupe::actors {

// Times (seconds_to_target, wall_seconds in metrics.csv) count from the run's
// first start, across resumes.
//
// A deterministic run (deterministic_agents > 0) counts the agents' reports
// by rounds: round r is every agent's report of its rollout r, counted in
// agent order once all have come. (round_atom, r) is the learner's question
// before it trains round r; answered once round r is counted and no
// evaluation is under way: true, or false when the run is stopping (the
// round is then not trained). So the stop, the confirmations and the rows
// fall at the same points of every run of the config and seed.
// final_atom: the run is over (every report is in): a last row of the
// figures as they end, unless the last row written has them already, and
// the totals. member_hyperparams (pbt): the member's hyperparameters from
// the population's driver, shown in every row from then on.
using metrics_actor =
    caf::typed_actor<caf::reacts_to<episode_report>, caf::reacts_to<algo::train_result>,
                     caf::reacts_to<member_hyperparams>,
                     caf::replies_to<totals_atom>::with<metrics_totals>,
                     caf::replies_to<final_atom>::with<metrics_totals>,
                     caf::replies_to<round_atom, std::uint64_t>::with<bool>>;

// Whoever runs the run (the coordinator): told once when a stop condition is met.
using run_control = caf::typed_actor<caf::reacts_to<stop_request>>;

struct metrics_config {
  run::stop_config stop;
  run::log_config log;
  std::string csv_path;  // empty: no CSV; appended to when it exists
  std::chrono::steady_clock::time_point start;
  model::checkpoint_meta resumed;  // counters and time of earlier segments
  // Plays the confirmation episodes (stop.confirm_episodes > 0) and the
  // best policy's (best.episodes > 0); invalid: neither.
  evaluator_actor evaluator;
  std::uint64_t confirm_seed = 1;  // of the first evaluation; each next one adds 1
  run::best_config best;  // checkpoint.best
  std::string tensorboard_dir = {};  // empty: no TensorBoard events; else a new event file there
  std::int32_t deterministic_agents = 0;  // run.deterministic: agents.count; 0: not deterministic
  std::shared_ptr<const agents::league> league = nullptr;  // self-play: its figures in every row
  // Several policies (one metrics actor each): the name that begins this
  // one's progress lines, and the env steps of all of them together, which
  // run.stop.env_steps counts (null: this actor's own).
  std::string label = {};
  std::shared_ptr<std::atomic<std::int64_t>> run_env_steps = nullptr;
};

// `coordinator` receives one stop_request when a stop condition is met.
metrics_actor spawn_metrics(caf::actor_system& sys, const metrics_config& config,
                            model_owner_actor owner, run_control coordinator);

}  // namespace troupe::actors
