#pragma once
// Reads TensorBoard event files back for the tests, independently of
// Troupe's writer: TFRecord framing checked byte by byte, and each record's
// protocol buffer parsed by Google's own library (libprotobuf's
// UnknownFieldSet, which knows wire formats but no schema), read by the
// field numbers of TensorFlow's event.proto and summary.proto:
//   Event { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5; }
//   Summary { repeated Value value = 1; }  Value { string tag = 1; float simple_value = 2; }
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <google/protobuf/unknown_field_set.h>

#include "run/tensorboard_writer.hpp"

namespace troupe::tests {

struct tensorboard_event {
  double wall_time = 0;
  std::int64_t step = 0;
  std::string file_version;              // the first event's
  std::map<std::string, float> scalars;  // a summary's values by tag
};

// The records of an event file, in order; throws std::runtime_error at the
// first frame whose length or checksums do not hold.
inline std::vector<std::string> tfrecords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> records;
  size_t at = 0;
  const auto u32 = [&](size_t where) {
    std::uint32_t v;
    std::memcpy(&v, bytes.data() + where, 4);
    return v;
  };
  while (at < bytes.size()) {
    if (bytes.size() - at < 12) throw std::runtime_error("a truncated record header at byte " + std::to_string(at));
    std::uint64_t length;
    std::memcpy(&length, bytes.data() + at, 8);
    if (u32(at + 8) != run::masked_crc32c(bytes.data() + at, 8))
      throw std::runtime_error("a bad length checksum at byte " + std::to_string(at));
    if (bytes.size() - at - 12 < length + 4) throw std::runtime_error("a truncated record at byte " + std::to_string(at));
    std::string data = bytes.substr(at + 12, length);
    if (u32(at + 12 + length) != run::masked_crc32c(data.data(), data.size()))
      throw std::runtime_error("a bad data checksum at byte " + std::to_string(at));
    records.push_back(std::move(data));
    at += 12 + length + 4;
  }
  return records;
}

inline tensorboard_event parse_event(const std::string& record) {
  using google::protobuf::UnknownField;
  google::protobuf::UnknownFieldSet fields;
  if (!fields.ParseFromString(record)) throw std::runtime_error("not a protocol buffer");
  tensorboard_event e;
  for (int i = 0; i < fields.field_count(); ++i) {
    const UnknownField& f = fields.field(i);
    if (f.number() == 1 && f.type() == UnknownField::TYPE_FIXED64) {
      const std::uint64_t bits = f.fixed64();
      std::memcpy(&e.wall_time, &bits, 8);
    } else if (f.number() == 2 && f.type() == UnknownField::TYPE_VARINT) {
      e.step = static_cast<std::int64_t>(f.varint());
    } else if (f.number() == 3 && f.type() == UnknownField::TYPE_LENGTH_DELIMITED) {
      e.file_version = f.length_delimited();
    } else if (f.number() == 5 && f.type() == UnknownField::TYPE_LENGTH_DELIMITED) {
      google::protobuf::UnknownFieldSet summary;
      if (!summary.ParseFromString(f.length_delimited())) throw std::runtime_error("a summary that does not parse");
      for (int j = 0; j < summary.field_count(); ++j) {
        google::protobuf::UnknownFieldSet value;
        if (summary.field(j).number() != 1 || !value.ParseFromString(summary.field(j).length_delimited()))
          throw std::runtime_error("a summary field that is not a Value");
        std::string tag;
        float v = 0;
        bool has_value = false;
        for (int k = 0; k < value.field_count(); ++k) {
          const UnknownField& g = value.field(k);
          if (g.number() == 1 && g.type() == UnknownField::TYPE_LENGTH_DELIMITED) tag = g.length_delimited();
          if (g.number() == 2 && g.type() == UnknownField::TYPE_FIXED32) {
            const std::uint32_t bits = g.fixed32();
            std::memcpy(&v, &bits, 4);
            has_value = true;
          }
        }
        if (tag.empty() || !has_value) throw std::runtime_error("a Value without a tag or a simple_value");
        e.scalars[tag] = v;
      }
    } else {
      throw std::runtime_error("an unexpected Event field " + std::to_string(f.number()));
    }
  }
  return e;
}

inline std::vector<tensorboard_event> read_events(const std::string& path) {
  std::vector<tensorboard_event> events;
  for (const std::string& record : tfrecords(path)) events.push_back(parse_event(record));
  return events;
}

}  // namespace troupe::tests
