#include "actors/byte_vector_field.hpp"

#include <algorithm>

namespace troupe::actors {

caf::error read_byte_vector(caf::deserializer& source, std::vector<std::uint8_t>& bytes) {
  // Large enough that a frame of pixels takes a few pieces, small enough that
  // a lying count costs next to nothing.
  constexpr size_t piece = 64 * 1024;
  size_t count = 0;
  if (auto err = source.begin_sequence(count)) return err;
  bytes.clear();
  while (bytes.size() < count) {
    const size_t have = bytes.size();
    bytes.resize(have + std::min(piece, count - have));
    if (auto err = source.apply_raw(bytes.size() - have, bytes.data() + have)) {
      bytes.clear();
      return err;
    }
  }
  return source.end_sequence();
}

}  // namespace troupe::actors
