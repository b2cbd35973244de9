#include "model/tensor_bundle.hpp"

#include <cstring>
#include <limits>
#include <set>

#include "model/checkpoint_error.hpp"

namespace troupe::model {

namespace {

using nlohmann::json;

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559,
              "checkpoints hold IEEE-754 single-precision floats");

bool little_endian() {
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// The number of values of `shape`, or -1 when it is not a shape whose
// values could fit in `limit`.
std::int64_t values_in(const std::vector<std::int64_t>& shape, std::int64_t limit) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) return -1;
    if (d == 0) return 0;
    if (n > limit / d) return -1;
    n *= d;
  }
  return n;
}

}  // namespace

const bundle_tensor* tensor_bundle::find(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

std::string write_tensor_bundle(const tensor_bundle& bundle) {
  if (!little_endian()) throw checkpoint_error("checkpoints are written on little-endian machines only");
  json directory = {{"info", bundle.info}, {"tensors", json::array()}};
  size_t floats = 0;
  for (const auto& t : bundle.tensors) {
    directory["tensors"].push_back({{"name", t.name}, {"shape", t.shape}});
    floats += t.values.size();
  }
  const std::string text = directory.dump();
  std::string out;
  out.reserve(8 + text.size() + floats * sizeof(float));
  const std::uint64_t length = text.size();
  for (int i = 0; i < 8; ++i) out.push_back(char((length >> (8 * i)) & 0xff));
  out += text;
  for (const auto& t : bundle.tensors)
    out.append(reinterpret_cast<const char*>(t.values.data()), t.values.size() * sizeof(float));
  return out;
}

tensor_bundle read_tensor_bundle(std::string_view bytes, const std::string& path) {
  const auto fail = [&](const std::string& why) {
    return checkpoint_error(path + ": corrupt checkpoint: " + why);
  };
  if (!little_endian()) throw checkpoint_error(path + ": checkpoints are read on little-endian machines only");
  if (bytes.size() < 8) throw fail("no directory");
  std::uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= std::uint64_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
  if (length > bytes.size() - 8) throw fail("its directory runs past the end of the file");
  json directory;
  try {
    directory = json::parse(bytes.substr(8, size_t(length)));
  } catch (const json::exception& e) {
    throw fail(std::string("its directory is not JSON: ") + e.what());
  }
  if (!directory.is_object() || !directory.contains("info") || !directory["info"].is_object() ||
      !directory.contains("tensors") || !directory["tensors"].is_array())
    throw fail("its directory lacks info or tensors");
  tensor_bundle bundle;
  bundle.info = std::move(directory["info"]);
  std::string_view data = bytes.substr(8 + size_t(length));
  std::set<std::string> names;
  for (const json& entry : directory["tensors"]) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() ||
        !entry.contains("shape") || !entry["shape"].is_array())
      throw fail("a tensor without a name or a shape");
    bundle_tensor t;
    t.name = entry["name"].get<std::string>();
    if (!names.insert(t.name).second) throw fail("tensor '" + t.name + "' appears twice");
    for (const json& d : entry["shape"]) {
      if (!d.is_number_integer()) throw fail("tensor '" + t.name + "' has a shape that is not integers");
      t.shape.push_back(d.get<std::int64_t>());
    }
    const std::int64_t n =
        values_in(t.shape, std::int64_t(data.size() / sizeof(float)));
    if (n < 0) throw fail("tensor '" + t.name + "' has a shape larger than the file");
    const size_t size = size_t(n) * sizeof(float);
    t.values.resize(size_t(n));
    if (size > 0) std::memcpy(t.values.data(), data.data(), size);
    data.remove_prefix(size);
    bundle.tensors.push_back(std::move(t));
  }
  if (!data.empty()) throw fail(std::to_string(data.size()) + " bytes follow its last tensor");
  return bundle;
}

}  // namespace troupe::model
