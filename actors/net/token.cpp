#include "actors/net/token.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

namespace troupe::actors {

bool tokens_match(const std::string& given, const std::string& expected) {
  unsigned char diff = given.size() == expected.size() ? 0 : 1;
  for (size_t i = 0; i < given.size(); ++i)
    diff |= static_cast<unsigned char>(given[i] ^ expected[i % std::max<size_t>(1, expected.size())]);
  return diff == 0 && !expected.empty();
}

std::string random_token() {
  std::random_device rd;
  char hex[33];
  for (int i = 0; i < 16; ++i) std::snprintf(hex + 2 * i, 3, "%02x", rd() & 0xff);
  return hex;
}

}  // namespace troupe::actors
