#pragma once
// The frames a peer sends on a BASP connection (CAF 0.17's network
// protocol), seen from outside CAF: what the front door
// (actors/net/front_door.hpp) checks before CAF reads a byte.
//
// A frame is a 32-byte header, then `payload_len` bytes:
//   byte 0: the operation (0 server handshake, 1 client handshake, 2 direct
//   message, 3 routed message, 4 monitor, 5 down, 6 heartbeat); bytes 1-2:
//   padding; 3: flags; 4-7: payload_len, big-endian; 8-31: operation data,
//   source and destination actor ids.
// CAF sizes its read buffer from payload_len before the payload arrives
// (zero-filled, up to 4 GiB), so a header alone would cost the learner that
// much memory: the door refuses frames over a limit before CAF sees them.
// It refuses routed messages too: in a cluster every peer talks to the
// learner directly, and a routed message may name any node, the learner's
// own included, as its sender's.
//
// Plain code (no CAF, no sockets): the fuzz target and the tests feed it bytes.
#include <array>
#include <cstdint>
#include <string>

namespace troupe::actors {

constexpr size_t basp_header_bytes = 32;

class basp_frame_reader {
 public:
  explicit basp_frame_reader(std::uint32_t max_payload_bytes) : max_payload_(max_payload_bytes) {}

  // Takes the next `size` bytes of the stream. Returns how many of them end
  // a complete frame, or stay before such an end (the bytes that may be
  // passed on); the rest belong to a frame still incomplete. After a problem
  // (problem() not empty) it takes nothing more and returns 0.
  size_t feed(const char* data, size_t size);

  // Why the stream must be cut ("" while it may go on).
  const std::string& problem() const { return problem_; }
  // Complete frames so far (the first is the peer's handshake).
  std::uint64_t frames() const { return frames_; }
  // Bytes of a frame begun but not complete.
  std::uint64_t pending() const {
    return header_have_ + (payload_left_ > 0 ? basp_header_bytes + payload_have_ : 0);
  }
  bool mid_frame() const { return header_have_ > 0 || payload_left_ > 0; }

 private:
  void header_done();

  std::uint32_t max_payload_;
  std::array<unsigned char, basp_header_bytes> header_{};
  size_t header_have_ = 0;
  std::uint64_t payload_left_ = 0;
  std::uint64_t payload_have_ = 0;
  std::uint64_t frames_ = 0;
  std::string problem_;
};

}  // namespace troupe::actors
