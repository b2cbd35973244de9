#include "algo/action_mask.hpp"

#include <algorithm>

namespace troupe::algo {

std::string mask_problem(const std::uint8_t* masks, long rows, int n) {
  return mask_problem(masks, rows, std::vector<int>{n});
}

std::string mask_problem(const std::uint8_t* masks, long rows, const std::vector<int>& heads) {
  long width = 0;
  for (int n : heads) width += n;
  for (long r = 0; r < rows; ++r) {
    const std::uint8_t* row = masks + r * width;
    for (size_t j = 0; j < heads.size(); ++j) {
      int legal = 0;
      for (int a = 0; a < heads[j]; ++a) {
        if (row[a] > 1)
          return "action mask row " + std::to_string(r) + ": entry " +
                 std::to_string(row - (masks + r * width) + a) + " is " + std::to_string(row[a]) +
                 ", expected 0 or 1";
        legal += row[a];
      }
      if (legal == 0)
        return "action mask row " + std::to_string(r) + ": no legal action" +
               (heads.size() > 1 ? " for component " + std::to_string(j) : std::string());
      row += heads[j];
    }
  }
  return "";
}

void first_legal_actions(const std::uint8_t* legal, const std::vector<int>& heads, float* action) {
  for (size_t j = 0; j < heads.size(); legal += heads[j++])
    action[j] = float(std::find(legal, legal + heads[j], 1) - legal);
}

std::string illegal_action_problem(const float* actions, const std::uint8_t* masks, long rows,
                                   const std::vector<int>& heads, long stride) {
  if (stride == 0) stride = long(heads.size());
  long width = 0;
  for (int n : heads) width += n;
  for (long r = 0; r < rows; ++r) {
    const std::uint8_t* row = masks + r * width;
    for (size_t j = 0; j < heads.size(); ++j) {
      const float a = actions[r * stride + long(j)];
      if (!(a >= 0 && a < heads[j] && a == float(int(a))) || !row[int(a)])
        return "sample " + std::to_string(r) + " took an action its mask does not allow";
      row += heads[j];
    }
  }
  return "";
}

}  // namespace troupe::algo
