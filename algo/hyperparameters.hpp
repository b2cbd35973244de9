#pragma once
// The algorithm's keys that may change while a run trains (population-based
// training explores them, agents/league/population.hpp): each is read afresh by
// every update, so a new value takes effect from the next batch. Other keys
// shape what is already built (the rollouts, the network, the optimiser) or
// bind it to the run's length.
#include <string>
#include <vector>

#include "algo/algo_config.hpp"

namespace troupe::algo {

// The keys, in the order they are listed ("algo.lr", ...).
const std::vector<std::string>& changeable_hyperparameters();

// Where `key`'s value lives in `config`; null when it cannot change during a run.
double* hyperparameter(algo_config& config, const std::string& key);
const double* hyperparameter(const algo_config& config, const std::string& key);

// Why `key` cannot change during a run, for an error message ("" when it can).
std::string why_not_changeable(const std::string& key);

}  // namespace troupe::algo
