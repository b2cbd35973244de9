#pragma once
// TensorBoard's event files, written by Troupe itself (no TensorFlow, no
// protobuf library): a file is a sequence of TFRecord records (the data's
// length as 8 little-endian bytes, a masked CRC-32C of those 8 bytes, the
// data, a masked CRC-32C of the data), each holding one Event protocol
// buffer: a version event first ("brain.Event:2"), then events of wall
// time, step and a Summary of tagged float scalars. Plain C++.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace troupe::run {

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `size` bytes.
std::uint32_t crc32c(const void* data, std::size_t size);
// TFRecord's masked form of a CRC: rotated right by 15 bits, plus 0xA282EAD8.
std::uint32_t masked_crc32c(const void* data, std::size_t size);
// `data` framed as one TFRecord record.
std::string tfrecord(const std::string& data);

using scalar = std::pair<std::string, float>;  // a tag and its value
// The serialised Event of `values` at `step`, at `wall_time` (seconds since
// the Unix epoch).
std::string scalars_event(double wall_time, std::int64_t step, const std::vector<scalar>& values);
// The serialised Event that opens a file: its format version.
std::string version_event(double wall_time);

// Appends events to a new file in a directory: a run's (or a policy's)
// TensorBoard log, which `tensorboard --logdir RUN/tensorboard` reads.
class tensorboard_writer {
 public:
  // Creates `dir` if needed and opens dir/events.out.tfevents.<seconds>.<host>.<pid>
  // (a resumed run starts another file beside its earlier ones), writing
  // the version event. Throws std::runtime_error naming the file when it
  // cannot.
  explicit tensorboard_writer(const std::string& dir);
  ~tensorboard_writer();
  tensorboard_writer(const tensorboard_writer&) = delete;
  tensorboard_writer& operator=(const tensorboard_writer&) = delete;

  // Appends one event of `values` at `step` (x axis: env steps) and hands
  // it to the operating system, so that a killed process loses none of
  // what was written. Returns false, and writes nothing more, once the file
  // cannot be appended to (a full disk, say).
  bool write(std::int64_t step, const std::vector<scalar>& values);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace troupe::run
