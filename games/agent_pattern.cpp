#include "games/agent_pattern.hpp"

namespace troupe::games {

bool agent_matches(const std::string& pattern, const std::string& name) {
  size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p, ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<int> agents_matching(const std::vector<std::string>& patterns, const std::vector<std::string>& names) {
  std::vector<int> found;
  for (size_t a = 0; a < names.size(); ++a)
    for (const auto& pattern : patterns)
      if (agent_matches(pattern, names[a])) {
        found.push_back(int(a));
        break;
      }
  return found;
}

}  // namespace troupe::games
