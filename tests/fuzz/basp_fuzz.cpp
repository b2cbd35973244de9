// The front door's BASP frame reader (actors/net/basp_frames.hpp): fed a
// stream in pieces of any size, it must pass exactly the bytes up to the
// last complete frame, count exactly the complete frames and cut the stream
// exactly where its rules say, agreeing with a plain reading of the whole
// stream at once. The first two bytes choose the piece sizes.
#include <algorithm>

#include "actors/net/basp_frames.hpp"
#include "tests/fuzz/fuzz_targets.hpp"

namespace troupe::fuzz {

namespace {

constexpr std::uint32_t max_payload = 4096;

// The rules, read off the whole stream: complete frames, where the last
// one ends, and whether a frame broke a rule.
struct reading {
  std::uint64_t frames = 0;
  size_t passed = 0;   // bytes up to the end of the last complete frame
  bool cut = false;    // a frame header broke a rule
};

reading read_whole(const unsigned char* s, size_t size) {
  reading r;
  size_t at = 0;
  while (at + actors::basp_header_bytes <= size) {
    const unsigned char op = s[at];
    const std::uint32_t length = (std::uint32_t(s[at + 4]) << 24) | (std::uint32_t(s[at + 5]) << 16) |
                                 (std::uint32_t(s[at + 6]) << 8) | std::uint32_t(s[at + 7]);
    const bool allowed = r.frames == 0 ? op == 1 : (op == 1 || op == 2 || op == 4 || op == 5 || op == 6);
    if (!allowed || length > max_payload) {
      r.cut = true;
      return r;
    }
    if (size - at - actors::basp_header_bytes < length) return r;  // incomplete
    at += actors::basp_header_bytes + length;
    ++r.frames;
    r.passed = at;
  }
  return r;
}

}  // namespace

bool basp_input(const std::uint8_t* data, size_t size) {
  if (size < 2) return false;
  const size_t small = 1 + data[0] % 40, large = 1 + data[1] * 37;
  const unsigned char* stream = data + 2;
  const size_t length = size - 2;
  const reading expected = read_whole(stream, length);

  actors::basp_frame_reader reader(max_payload);
  size_t passed = 0, at = 0, turn = 0;
  while (at < length) {
    const size_t piece = std::min((turn++ % 3 == 2) ? large : small, length - at);
    const std::uint64_t frames_before = reader.frames();
    const bool cut_before = !reader.problem().empty();
    const size_t complete = reader.feed(reinterpret_cast<const char*>(stream) + at, piece);
    if (complete > piece) throw fuzz_finding("feed passed more bytes than it was given");
    if (cut_before && (complete != 0 || reader.frames() != frames_before))
      throw fuzz_finding("the reader went on after cutting the stream");
    if (complete > 0) passed = at + complete;
    at += piece;
    if (reader.problem().empty() && reader.pending() != at - passed)
      throw fuzz_finding("pending() is " + std::to_string(reader.pending()) + ", but " +
                         std::to_string(at - passed) + " bytes follow the last complete frame");
  }
  if (expected.cut != !reader.problem().empty())
    throw fuzz_finding(expected.cut ? "a frame that breaks the rules was let through"
                                    : "the stream was cut: " + reader.problem());
  if (!expected.cut && (passed != expected.passed || reader.frames() != expected.frames))
    throw fuzz_finding("passed " + std::to_string(passed) + " bytes in " +
                       std::to_string(reader.frames()) + " frames; the whole stream has " +
                       std::to_string(expected.frames) + " complete frames ending at byte " +
                       std::to_string(expected.passed));
  return !expected.cut && expected.frames > 0;
}

}  // namespace troupe::fuzz
