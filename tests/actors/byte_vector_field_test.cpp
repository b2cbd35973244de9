// A message's byte vectors travel as CAF's own do, but a count that the bytes
// do not back costs a node next to nothing (actors/byte_vector_field.hpp).
#include <doctest/doctest.h>

#include <caf/all.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "actors/messages/frames.hpp"
#include "actors/messages/learning.hpp"

using namespace troupe;

namespace {

// CAF's count of a sequence: 7 bits a byte, low first.
std::vector<char> varbyte(std::uint32_t n) {
  std::vector<char> out;
  do {
    out.push_back(char((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
    n >>= 7;
  } while (n > 0);
  return out;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("byte vectors: a claimed 4 GiB that never arrives allocates one piece at most") {
  // A frame whose pixel count says 2^32 - 1 and whose bytes end after 3.
  std::vector<char> wire;
  {
    caf::binary_serializer sink(nullptr, wire);
    envs::rgb_frame frame;
    frame.width = 1;
    frame.height = 1;
    REQUIRE_FALSE(sink(frame.width, frame.height));
  }
  const auto count = varbyte(0xffffffffu);
  wire.insert(wire.end(), count.begin(), count.end());
  wire.insert(wire.end(), {'a', 'b', 'c'});
  envs::rgb_frame frame;
  caf::binary_deserializer source(nullptr, wire);
  CHECK(source(frame));  // the bytes are not there: an error
  // CAF's own reading resizes to the claim first: 4 GiB, zero-filled.
  CHECK(frame.pixels.capacity() <= 64 * 1024);
}

TEST_CASE("byte vectors: the same bytes on the wire as CAF's own, and back") {
  algo::rollout r;
  r.n_steps = 2;
  r.terminated = {0, 1, 0, 1, 1};
  r.truncated.assign(200000, 1);  // several pieces
  std::vector<char> ours, cafs;
  {
    caf::binary_serializer sink(nullptr, ours);
    REQUIRE_FALSE(sink(r));
  }
  {
    caf::binary_serializer sink(nullptr, cafs);  // the vectors as CAF writes them
    REQUIRE_FALSE(sink(r.terminated, r.truncated));
  }
  const std::string a(ours.begin(), ours.end()), b(cafs.begin(), cafs.end());
  CHECK(a.find(b) != std::string::npos);
  algo::rollout back;
  caf::binary_deserializer source(nullptr, ours);
  REQUIRE_FALSE(source(back));
  CHECK(back.terminated == r.terminated);
  CHECK(back.truncated == r.truncated);
  CHECK(back.n_steps == 2);
}
}
