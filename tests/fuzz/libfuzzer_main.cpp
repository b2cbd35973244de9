// libFuzzer's entry for one target, chosen at build time (TROUPE_FUZZ_TARGET;
// see tests/CMakeLists.txt). An exception of any kind escapes: libFuzzer
// reports it as a crash and keeps the input.
#include "tests/fuzz/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  troupe::fuzz::TROUPE_FUZZ_TARGET(data, size);
  return 0;
}
