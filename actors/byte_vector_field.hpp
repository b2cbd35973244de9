#pragma once
// How a message's vector of bytes travels between nodes.
//
// CAF 0.17 reads a std::vector<std::uint8_t> by resizing it to the length
// the sender claims (a 32-bit count, so up to 4 GiB, zero-filled) and only
// then checking that the bytes are there. Five bytes from any peer that
// reached the cluster port, token or not, made the learner fill 4 GiB
// before a single check of ours ran (tests/fuzz/messages_fuzz.cpp found it).
// A message's byte vectors are therefore read in pieces: what a node
// allocates is bounded by what actually arrived. The bytes on the wire are
// the same as CAF's own (a count, then the bytes), so nodes of either kind
// understand each other.
#include <cstdint>
#include <vector>

#include <caf/deserializer.hpp>
#include <caf/error.hpp>

namespace troupe::actors {

// Wraps a field for inspect(): f(..., byte_vector_field{x.pixels}, ...).
struct byte_vector_field {
  std::vector<std::uint8_t>& bytes;
};

// Reads a count and then that many bytes, at most `piece` bytes ahead of
// what `source` has delivered so far.
caf::error read_byte_vector(caf::deserializer& source, std::vector<std::uint8_t>& bytes);

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, byte_vector_field& x) {
  if constexpr (Inspector::writes_state)
    return read_byte_vector(f, x.bytes);
  else
    return f(x.bytes);
}

}  // namespace troupe::actors
