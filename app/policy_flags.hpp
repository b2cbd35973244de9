#pragma once
// --policy NAME and --member N: which policy of a run of several (policies:)
// or which member of a population (pbt) eval, play and export take.
#include <string>

#include <CLI/CLI.hpp>

namespace troupe::app {

struct policy_flags {
  std::string policy;  // empty: the first policy, or the best member
  int member = -1;     // < 0: not given

  // What run::load_trained_model takes: the policy's name, "member_N", or "".
  // Throws config_error when both are given.
  std::string chosen() const;
};

void add_policy_flags(CLI::App& cmd, policy_flags& flags);

}  // namespace troupe::app
