#pragma once
// How many rounds a concurrency loop test runs. The rounds give a race many
// chances to show; AddressSanitizer reports a bad access the first time it
// happens, and its build runs every round several times slower. So the
// ASan run (scripts/sanitize.sh address, in CI) takes a quarter of them;
// the Release and TSan runs take them all.
namespace troupe::tests {

constexpr int loop_rounds(int full) {
#ifdef __SANITIZE_ADDRESS__
  return full / 4 > 0 ? full / 4 : 1;
#else
  return full;
#endif
}

}  // namespace troupe::tests
