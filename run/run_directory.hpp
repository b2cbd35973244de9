#pragma once
// What a run leaves on disk, in one place: RUN/config.yaml (the resolved
// config), RUN/metrics.csv (a row per progress period, and one when a stop
// condition is met), RUN/summary.json (the outcome), RUN/checkpoints/
// (model/checkpoint_store.hpp), RUN/tensorboard/ (the same rows as
// TensorBoard event files, with log.tensorboard) and, with log.plot,
// RUN/curves.png. With policies:, each policy keeps these in
// RUN/policies/NAME/ (its TensorBoard events in RUN/tensorboard/NAME/), and
// RUN/ has the run's config.yaml and summary.json.
#include <string>

#include "model/checkpoint_store.hpp"

namespace troupe::run {

struct run_directory {
  std::string root;  // empty: a run that keeps no files

  // runs/<name>-<local time>, for a run started without --run-dir.
  static run_directory fresh(const std::string& run_name);

  std::string config_file() const { return root + "/config.yaml"; }
  std::string metrics_file() const { return root + "/metrics.csv"; }
  std::string summary_file() const { return root + "/summary.json"; }
  std::string curves_file() const { return root + "/curves.png"; }
  std::string tensorboard_dir() const { return root + "/tensorboard"; }
  // Self-play: league.json and snapshots/ID.pt (actors/league/selfplay_pool.hpp).
  std::string selfplay_dir() const { return root + "/selfplay"; }
  model::checkpoint_store checkpoints(int keep = 1) const { return {root, keep}; }
  // policies: policy NAME's own run directory (config.yaml, metrics.csv,
  // summary.json, checkpoints/, selfplay/), which eval, play and export
  // take as they take a run's.
  std::string policy_dir(const std::string& name) const { return root + "/policies/" + name; }

  void create() const;
  // Replaces `path` with `content`; throws std::runtime_error when it cannot.
  static void write(const std::string& path, const std::string& content);
  // The checkpoint a resumed run starts from: the newest one, once its
  // checksum and metadata hold. Throws config_error when there is none, or
  // when it is damaged (naming it, and an older one that loads).
  std::string resume_point() const;
};

}  // namespace troupe::run
