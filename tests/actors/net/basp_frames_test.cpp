// What the front door lets through of a peer's BASP stream, fed as bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "actors/net/basp_frames.hpp"

using namespace troupe::actors;

namespace {

// A frame's header alone: what a peer sends first, whatever it claims follows.
std::string frame_header(unsigned char operation, std::uint32_t payload_len) {
  std::string f(basp_header_bytes, '\0');
  f[0] = char(operation);
  f[4] = char(payload_len >> 24);
  f[5] = char(payload_len >> 16);
  f[6] = char(payload_len >> 8);
  f[7] = char(payload_len);
  return f;
}

std::string frame(unsigned char operation, std::uint32_t payload_len, char fill = 'p') {
  return frame_header(operation, payload_len) + std::string(payload_len, fill);
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("basp frames: whole frames pass in any chunking; a partial one is held back") {
  const std::string stream = frame(1, 40) + frame(2, 100) + frame(6, 0) + frame(2, 7);
  for (size_t chunk : {size_t(1), size_t(3), size_t(31), size_t(32), size_t(33), size_t(1000)}) {
    CAPTURE(chunk);
    basp_frame_reader reader(1 << 20);
    size_t passed = 0;
    for (size_t at = 0; at < stream.size(); at += chunk) {
      const size_t n = std::min(chunk, stream.size() - at);
      const size_t complete = reader.feed(stream.data() + at, n);
      REQUIRE(reader.problem().empty());
      if (complete > 0) passed = at + complete;  // everything up to a frame's end
    }
    CHECK(passed == stream.size());
    CHECK(reader.frames() == 4);
    CHECK_FALSE(reader.mid_frame());
  }
  basp_frame_reader reader(1 << 20);
  const std::string half = frame(1, 40).substr(0, 50);
  CHECK(reader.feed(half.data(), half.size()) == 0);
  CHECK(reader.mid_frame());
  CHECK(reader.pending() == 50);
}

TEST_CASE("basp frames: oversized, routed, server-side or unknown frames cut the stream") {
  struct bad {
    std::string bytes, says;
  };
  const std::vector<bad> cases = {
      {frame(2, 10), "not a client handshake"},
      {frame(1, 0) + frame(3, 10), "a routed message"},
      {frame(1, 0) + frame(0, 10), "server-only operation 0"},
      {frame(1, 0) + frame(9, 0), "unknown or server-only operation 9"},
      // The header of a 4 GiB message (its bytes never built: that took 8 GiB
      // and 49 s under ASan).
      {frame(1, 0) + frame_header(2, 0xffffffffu), "over the limit"},
      {frame(1, 2000), "a message of 2000 bytes, over the limit of 1024"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.says);
    basp_frame_reader reader(1024);
    reader.feed(c.bytes.data(), c.bytes.size());
    CHECK(reader.problem().find(c.says) != std::string::npos);
    // Nothing more is taken after a problem.
    CHECK(reader.feed(c.bytes.data(), c.bytes.size()) == 0);
  }
}
}
