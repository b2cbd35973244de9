#include "run/tensorboard_writer.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace troupe::run {

namespace {

const std::array<std::uint32_t, 256>& crc_table() {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

// Protocol buffers' wire format: a field's key is (number << 3) | wire type.
enum wire_type : std::uint32_t { varint = 0, fixed64 = 1, length_delimited = 2, fixed32 = 5 };

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void put_key(std::string& out, std::uint32_t field, wire_type type) { put_varint(out, (field << 3) | type); }

// Little-endian bytes of a value (this machine's order is little-endian,
// which the event files require; see the static_assert below).
template <typename T>
void put_raw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "event files are little-endian");

void put_bytes(std::string& out, std::uint32_t field, const std::string& bytes) {
  put_key(out, field, length_delimited);
  put_varint(out, bytes.size());
  out += bytes;
}

// An Event's fields: wall_time = 1 (double), step = 2 (int64), then one of
// file_version = 3 (string) or summary = 5 (Summary).
std::string event_head(double wall_time, std::int64_t step) {
  std::string event;
  put_key(event, 1, fixed64);
  put_raw(event, wall_time);
  if (step != 0) {
    put_key(event, 2, varint);
    put_varint(event, static_cast<std::uint64_t>(step));
  }
  return event;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

}  // namespace

std::uint32_t crc32c(const void* data, std::size_t size) {
  const auto& table = crc_table();
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ bytes[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::uint32_t masked_crc32c(const void* data, std::size_t size) {
  const std::uint32_t c = crc32c(data, size);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

std::string tfrecord(const std::string& data) {
  std::string record;
  put_raw(record, static_cast<std::uint64_t>(data.size()));
  put_raw(record, masked_crc32c(record.data(), 8));
  record += data;
  put_raw(record, masked_crc32c(data.data(), data.size()));
  return record;
}

std::string scalars_event(double wall_time, std::int64_t step, const std::vector<scalar>& values) {
  // Summary { repeated Value value = 1; }, Value { string tag = 1; float simple_value = 2; }
  std::string summary;
  for (const auto& [tag, v] : values) {
    std::string value;
    put_bytes(value, 1, tag);
    put_key(value, 2, fixed32);
    put_raw(value, v);
    put_bytes(summary, 1, value);
  }
  std::string event = event_head(wall_time, step);
  put_bytes(event, 5, summary);
  return event;
}

std::string version_event(double wall_time) {
  std::string event = event_head(wall_time, 0);
  put_bytes(event, 3, "brain.Event:2");
  return event;
}

tensorboard_writer::tensorboard_writer(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const double started = now_seconds();
  const std::string base = (std::filesystem::path(dir) / ("events.out.tfevents." +
                                                          std::to_string(static_cast<long long>(started)) + "." +
                                                          host_name() + "." + std::to_string(getpid())))
                               .string();
  // A file of its own, never another writer's: "x" fails on an existing one.
  for (int n = 0; n < 100 && !file_; ++n) {
    path_ = n == 0 ? base : base + "." + std::to_string(n);
    file_ = std::fopen(path_.c_str(), "wbx");
    if (!file_ && errno != EEXIST) break;
  }
  if (!file_)
    throw std::runtime_error(path_ + ": cannot be written (" + std::strerror(errno) + ")");
  const std::string record = tfrecord(version_event(started));
  if (std::fwrite(record.data(), 1, record.size(), file_) != record.size() || std::fflush(file_) != 0) {
    std::fclose(file_);
    file_ = nullptr;
    throw std::runtime_error(path_ + ": cannot be written (" + std::strerror(errno) + ")");
  }
}

tensorboard_writer::~tensorboard_writer() {
  if (file_) std::fclose(file_);
}

bool tensorboard_writer::write(std::int64_t step, const std::vector<scalar>& values) {
  if (!file_) return false;
  const std::string record = tfrecord(scalars_event(now_seconds(), step, values));
  if (std::fwrite(record.data(), 1, record.size(), file_) == record.size() && std::fflush(file_) == 0) return true;
  std::fclose(file_);
  file_ = nullptr;
  return false;
}

}  // namespace troupe::run
