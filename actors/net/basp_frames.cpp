#include "actors/net/basp_frames.hpp"

#include <algorithm>

namespace troupe::actors {

namespace {

// What a peer of the learner (a worker or a viewer, always the connecting
// side) may send: its handshake, messages, monitor and down notices, and
// heartbeats. Never a server handshake nor a routed message.
constexpr unsigned char client_handshake = 1;

bool allowed_from_a_client(unsigned char operation) {
  switch (operation) {
    case 1:  // client handshake
    case 2:  // direct message
    case 4:  // monitor message
    case 5:  // down message
    case 6:  // heartbeat
      return true;
    default:
      return false;
  }
}

}  // namespace

void basp_frame_reader::header_done() {
  const unsigned char operation = header_[0];
  const std::uint32_t length = (std::uint32_t(header_[4]) << 24) | (std::uint32_t(header_[5]) << 16) |
                               (std::uint32_t(header_[6]) << 8) | std::uint32_t(header_[7]);
  if (frames_ == 0 && operation != client_handshake) {
    problem_ = "the first frame is not a client handshake (operation " + std::to_string(operation) + ")";
  } else if (!allowed_from_a_client(operation)) {
    problem_ = operation == 3 ? "a routed message (peers talk to this node directly)"
                              : "a frame of unknown or server-only operation " + std::to_string(operation);
  } else if (length > max_payload_) {
    problem_ = "a message of " + std::to_string(length) + " bytes, over the limit of " +
               std::to_string(max_payload_) + " (cluster.max_message_bytes)";
  }
  header_have_ = 0;
  payload_left_ = length;
  payload_have_ = 0;
  if (problem_.empty() && length == 0) ++frames_;
}

size_t basp_frame_reader::feed(const char* data, size_t size) {
  size_t used = 0, complete = 0;
  while (used < size && problem_.empty()) {
    if (payload_left_ == 0) {
      const size_t take = std::min(size - used, basp_header_bytes - header_have_);
      std::copy(data + used, data + used + take, header_.begin() + header_have_);
      header_have_ += take;
      used += take;
      if (header_have_ < basp_header_bytes) break;
      header_done();
      if (problem_.empty() && payload_left_ == 0) complete = used;
    } else {
      const size_t take = size_t(std::min<std::uint64_t>(size - used, payload_left_));
      payload_left_ -= take;
      payload_have_ += take;
      used += take;
      if (payload_left_ == 0) {
        ++frames_;
        complete = used;
      }
    }
  }
  return problem_.empty() ? complete : 0;
}

}  // namespace troupe::actors
