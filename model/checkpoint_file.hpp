#pragma once
// A checkpoint's bytes on disk: a fixed header, then the content.
//
//   offset  size  what
//        0     8  magic "TROUPECK"
//        8     4  format version (2), little-endian
//       12     4  zero (reserved)
//       16     8  content length in bytes, little-endian
//       24    32  SHA-256 of the content
//       56     -  the content: named tensors and metadata (model/tensor_bundle.hpp)
//
// Without a checksum, four bytes overwritten inside a tensor load without a
// word, and the policy is silently different. The header makes any change
// to the bytes (truncation, a flipped bit, another file under the name) an
// error that names the file and what is wrong. Format 1 held a LibTorch
// archive, which is no longer read (model/tensor_bundle.hpp says why).
// Nothing here includes LibTorch, so the fuzz target and the tests can call
// it on raw bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/checkpoint_error.hpp"

namespace troupe::model {

constexpr std::string_view checkpoint_magic = "TROUPECK";
constexpr std::uint32_t checkpoint_format = 2;
constexpr size_t checkpoint_header_bytes = 56;

// The file's bytes for this content.
std::string seal_checkpoint(std::string_view content);

// The content inside a checkpoint file's bytes, once the header says it is
// one, of this format, complete and unchanged. Throws checkpoint_error
// (model/checkpoint.hpp) naming `path` and the problem otherwise.
std::string_view unseal_checkpoint(std::string_view file, const std::string& path);

// Reads a whole file (checkpoint_error: missing, unreadable, a directory).
std::string read_checkpoint_file(const std::string& path);

// Replaces `path` with `bytes` so that a crash at any moment leaves either
// the old file or the new one: writes PATH.tmp, flushes it to disk, renames
// it over `path` and flushes the directory. On failure (a full disk, say) the
// temporary file is removed, `path` is untouched, and checkpoint_error says
// what failed ("no space left on device").
void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace troupe::model
