#pragma once
// Population-based training's decisions, without actors (docs/pbt.md): the
// members' first hyperparameters, which member copies which, and how the
// copy's hyperparameters are explored. A decision is a function of the
// run's seed, its number in the run and the scores it is given, so a
// resumed run decides as a run that never stopped would from the same
// scores.
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "run/run_config.hpp"

namespace troupe::agents {

using hyperparams = std::map<std::string, double>;  // "algo.lr" -> value

struct pbt_decision {
  std::uint64_t index = 0;  // the run's decisions before this one
  int member = 0;
  bool exploit = false;     // copied `source` and explored
  int source = -1;
  hyperparams before, after;
};

// What a population has done so far: RUN/pbt.json, restored on --resume.
struct pbt_lineage_entry {
  std::uint64_t decision = 0;  // the run's decision number
  std::int64_t env_steps = 0;  // the member's own, then
  int source = -1;             // the member it copied
};
struct pbt_member_state {
  hyperparams values;
  std::int64_t next_decision_at = 0;  // the member's own env steps
  std::int64_t env_steps = 0;         // at its last decision
  double score = std::numeric_limits<double>::quiet_NaN();  // at its last decision (NaN: none yet)
  std::vector<pbt_lineage_entry> lineage;  // every copy it took, oldest first
};
struct pbt_state {
  std::uint64_t decisions = 0;
  std::int64_t exploits = 0;
  std::vector<pbt_member_state> members;
};

class population {
 public:
  population(run::pbt_config config, std::uint64_t seed);

  int size() const { return config_.population; }
  // Member `member`'s first hyperparameters: each drawn from its init range,
  // uniformly on its scale.
  hyperparams initial(int member) const;

  // Truncation selection on `scores` (one per member; NaN: no episode yet,
  // ranked last): the members ranked in the top and bottom fractions, k =
  // max(1, round(truncation x members)) each. Ranked by score, higher first;
  // equal scores by member number, lower first, so the two never overlap.
  struct ranking {
    std::vector<int> top, bottom;
  };
  ranking rank(const std::vector<double>& scores) const;

  // Member `member`'s decision number `index`: in the bottom fraction, it
  // copies a member of the top fraction that scores strictly better (drawn
  // uniformly among them) and explores from that member's hyperparameters;
  // otherwise (or when none scores better) it keeps its own.
  pbt_decision decide(std::uint64_t index, int member, const std::vector<double>& scores,
                      const std::vector<hyperparams>& current) const;

  // Each value resampled from its range (pbt.resample_probability) or
  // multiplied by one of pbt.perturb's factors, then clipped to its range.
  hyperparams explore(const hyperparams& from, std::mt19937_64& rng) const;

  const run::pbt_config& config() const { return config_; }

  // A fresh run's state: each member's first draw, its first decision after
  // pbt.interval_env_steps.
  pbt_state first_state() const;
  // pbt.json's text, and back; throws std::runtime_error naming `where` and
  // what is wrong (another population size or hyperparameters than this
  // population's, a value outside its range).
  static std::string state_json(const pbt_state& state);
  pbt_state state_from_json(const std::string& text, const std::string& where) const;

 private:
  double draw(const run::hyperparam_range& r, double lo, double hi, std::mt19937_64& rng) const;

  run::pbt_config config_;
  std::uint64_t seed_;
};

}  // namespace troupe::agents
