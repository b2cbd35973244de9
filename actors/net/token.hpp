#pragma once
// The cluster's shared secret: what a worker must present to join.
#include <string>

namespace troupe::actors {

// Compares without leaking, through timing, how much of the token matched.
bool tokens_match(const std::string& given, const std::string& expected);

// 32 random hex digits from the operating system's randomness.
std::string random_token();

}  // namespace troupe::actors
