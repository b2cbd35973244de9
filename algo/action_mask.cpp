#include "algo/action_mask.hpp"

namespace troupe::algo {

std::string mask_problem(const std::uint8_t* masks, long rows, int n) {
  for (long r = 0; r < rows; ++r) {
    const std::uint8_t* row = masks + r * n;
    int legal = 0;
    for (int a = 0; a < n; ++a) {
      if (row[a] > 1)
        return "action mask row " + std::to_string(r) + ": entry " + std::to_string(a) + " is " +
               std::to_string(row[a]) + ", expected 0 or 1";
      legal += row[a];
    }
    if (legal == 0) return "action mask row " + std::to_string(r) + ": no legal action";
  }
  return "";
}

}  // namespace troupe::algo
