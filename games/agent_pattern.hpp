#pragma once
// A game's agents named by id or by pattern (player_*, red_*), as
// policies.NAME.agents and env.team name them.
#include <string>
#include <vector>

namespace troupe::games {

// Whether agent id `name` matches `pattern`, * standing for any run of
// characters.
bool agent_matches(const std::string& pattern, const std::string& name);

// The indices of the agents among `names` that any of `patterns` matches,
// in agent order.
std::vector<int> agents_matching(const std::vector<std::string>& patterns, const std::vector<std::string>& names);

}  // namespace troupe::games
