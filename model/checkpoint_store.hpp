#pragma once
// The checkpoints of one run directory: RUN/checkpoints/ckpt-<env steps>.pt,
// whose names sort in the order they were written. Naming, retention (the
// newest `keep`), the newest one, and the one a resumed run starts from.
#include <cstdint>
#include <string>
#include <vector>

namespace troupe::model {

class checkpoint_store {
 public:
  checkpoint_store(std::string run_dir, int keep = 1);

  // Where the checkpoint taken at `env_steps` goes (creating the directory).
  std::string path_for(std::int64_t env_steps) const;
  // Removes all but the newest `keep` checkpoints.
  void prune() const;
  // Every complete checkpoint, oldest first.
  std::vector<std::string> all() const;
  // The newest complete checkpoint, or "" when there is none.
  std::string newest() const;
  // The run's best policy (actors/evaluator.hpp): best.pt, beside the
  // others but never one of them (neither pruned nor resumed from).
  std::string best() const { return dir_ + "/best.pt"; }

 private:
  std::string dir_;
  int keep_;
};

}  // namespace troupe::model
