#pragma once
// What a network peer can make Troupe log: the first ten events of a kind,
// then one in a thousand, so that a flood of bad connections, messages or
// frames does not become a flood of log lines.
#include <cstdint>

namespace troupe::actors {

// Whether the n-th event of a kind (counting from 1) is logged.
constexpr bool worth_logging(std::int64_t n) { return n <= 10 || n % 1000 == 0; }

}  // namespace troupe::actors
