#include "app/policy_flags.hpp"

#include "run/config_loader.hpp"

namespace troupe::app {

std::string policy_flags::chosen() const {
  if (member >= 0 && !policy.empty()) throw run::config_error("give --policy or --member, not both");
  return member >= 0 ? "member_" + std::to_string(member) : policy;
}

void add_policy_flags(CLI::App& cmd, policy_flags& flags) {
  cmd.add_option("--policy", flags.policy, "a run of several policies (policies:): which one (default: the first in its config)");
  cmd.add_option("--member", flags.member, "a population (pbt): which member (default: the best, by summary.json)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace troupe::app
