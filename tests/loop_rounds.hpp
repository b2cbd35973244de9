#pragma once
// How many rounds a concurrency loop test runs. The rounds give a race many
// chances to show; AddressSanitizer reports a bad access the first time it
// happens, and its build runs every round several times slower. So the
// ASan run (scripts/sanitize.sh address, in CI) takes a quarter of them;
// the Release and TSan runs take them all.
//
// Asked at run time, not by __SANITIZE_ADDRESS__: the tests' objects are
// compiled once, without ASan, and linked both into the Release binary and
// into the one with the instrumented libraries (cmake/asan_twins.cmake).
// The ASan runtime, linked into every ASan binary (that one, and the tree
// that scripts/sanitize.sh address --full instruments whole), defines
// __asan_init.
extern "C" void __asan_init() __attribute__((weak));

namespace troupe::tests {

inline bool under_address_sanitizer() { return __asan_init != nullptr; }

inline int loop_rounds(int full) {
  if (!under_address_sanitizer()) return full;
  return full / 4 > 0 ? full / 4 : 1;
}

}  // namespace troupe::tests
