#pragma once
// The fuzz targets. Each takes any bytes at all and must neither crash nor
// break a promise of the code it feeds; a broken promise throws
// fuzz_finding. Each says whether the input went all the way (a config that
// loaded, a message its check accepted), so that the test suite can tell a
// corpus that reaches the code behind the checks from one that does not. libFuzzer runs them (tests/fuzz/libfuzzer_main.cpp, built by
// scripts/fuzz.sh), and the test suite replays every input kept in
// tests/fuzz/corpus/TARGET and tests/fuzz/regressions/TARGET through them
// (tests/fuzz/corpus_test.cpp).
//
//   config      YAML text, then optional --set lines after a line "#--set"
//   checkpoint  a checkpoint file ("TROUPECK..."), or any other bytes as the
//               content of a correctly sealed checkpoint
//   basp        bytes arriving at the cluster port's front door
//   messages    one cluster or frame-stream message as CAF puts it on the wire
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace troupe::fuzz {

struct fuzz_finding : std::logic_error {
  using std::logic_error::logic_error;
};

bool config_input(const std::uint8_t* data, size_t size);
bool checkpoint_input(const std::uint8_t* data, size_t size);
bool basp_input(const std::uint8_t* data, size_t size);
bool messages_input(const std::uint8_t* data, size_t size);

struct fuzz_target {
  std::string name;
  bool (*run)(const std::uint8_t*, size_t);
};

inline const std::vector<fuzz_target>& fuzz_targets() {
  static const std::vector<fuzz_target> all = {{"config", config_input},
                                               {"checkpoint", checkpoint_input},
                                               {"basp", basp_input},
                                               {"messages", messages_input}};
  return all;
}

}  // namespace troupe::fuzz
