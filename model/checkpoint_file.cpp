#include "model/checkpoint_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <openssl/evp.h>

#include "model/checkpoint_error.hpp"

namespace troupe::model {

namespace {

using digest = std::array<unsigned char, 32>;

digest sha256(std::string_view bytes) {
  digest out{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), out.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != out.size())
    throw checkpoint_error("SHA-256 is not available from OpenSSL");
  return out;
}

template <class Int>
void put_le(std::string& out, Int value) {
  for (size_t i = 0; i < sizeof(Int); ++i) out.push_back(char((value >> (8 * i)) & 0xff));
}

template <class Int>
Int get_le(std::string_view in, size_t offset) {
  Int value = 0;
  for (size_t i = 0; i < sizeof(Int); ++i)
    value |= Int(static_cast<unsigned char>(in[offset + i])) << (8 * i);
  return value;
}

std::string system_error(const std::string& what, int error) {
  return what + ": " + std::strerror(error);
}

// RAII for a file descriptor, so that every failure path closes it.
struct descriptor {
  int fd;
  ~descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

void fsync_directory(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  descriptor d{::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY)};
  if (d.fd < 0 || ::fsync(d.fd) != 0)
    throw checkpoint_error(system_error(path + ": the rename cannot be flushed to disk", errno));
}

}  // namespace

std::string seal_checkpoint(std::string_view content) {
  std::string out;
  out.reserve(checkpoint_header_bytes + content.size());
  out.append(checkpoint_magic);
  put_le<std::uint32_t>(out, checkpoint_format);
  put_le<std::uint32_t>(out, 0);
  put_le<std::uint64_t>(out, content.size());
  const digest d = sha256(content);
  out.append(reinterpret_cast<const char*>(d.data()), d.size());
  out.append(content);
  return out;
}

std::string_view unseal_checkpoint(std::string_view file, const std::string& path) {
  const auto fail = [&](const std::string& why) { return checkpoint_error(path + ": " + why); };
  if (file.empty()) throw fail("empty file (0 bytes), not a checkpoint");
  if (file.size() < checkpoint_magic.size() || file.substr(0, checkpoint_magic.size()) != checkpoint_magic)
    throw fail("not a Troupe checkpoint (it does not start with " + std::string(checkpoint_magic) +
               "; a checkpoint written before checksums, or another kind of file)");
  if (file.size() < checkpoint_header_bytes)
    throw fail("truncated checkpoint: " + std::to_string(file.size()) + " bytes, shorter than its " +
               std::to_string(checkpoint_header_bytes) + "-byte header");
  const auto format = get_le<std::uint32_t>(file, 8);
  if (format != checkpoint_format)
    throw fail("checkpoint format " + std::to_string(format) + ", but this Troupe reads format " +
               std::to_string(checkpoint_format) +
               (format == 1 ? " (format 1, a LibTorch archive, is no longer read)" : ""));
  if (get_le<std::uint32_t>(file, 12) != 0) throw fail("corrupt checkpoint header");
  const auto length = get_le<std::uint64_t>(file, 16);
  const std::uint64_t held = file.size() - checkpoint_header_bytes;
  if (held < length)
    throw fail("truncated checkpoint: it holds " + std::to_string(held) + " of its " +
               std::to_string(length) + " bytes");
  if (held > length)
    throw fail("corrupt checkpoint: " + std::to_string(held - length) +
               " bytes follow its end");
  const std::string_view content = file.substr(checkpoint_header_bytes);
  const digest stored = [&] {
    digest d{};
    std::memcpy(d.data(), file.data() + 24, d.size());
    return d;
  }();
  if (sha256(content) != stored)
    throw fail("corrupt checkpoint: its content does not match its checksum (changed on disk "
               "since it was written)");
  return content;
}

std::string read_checkpoint_file(const std::string& path) {
  descriptor d{::open(path.c_str(), O_RDONLY)};
  if (d.fd < 0) {
    if (errno == ENOENT) throw checkpoint_error(path + ": no such checkpoint file");
    throw checkpoint_error(system_error(path + ": cannot be opened", errno));
  }
  struct stat info;
  if (::fstat(d.fd, &info) != 0) throw checkpoint_error(system_error(path + ": cannot be read", errno));
  if (!S_ISREG(info.st_mode)) throw checkpoint_error(path + ": not a regular file");
  std::string bytes(size_t(info.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(d.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw checkpoint_error(system_error(path + ": cannot be read", errno));
    if (n == 0) break;  // shrank while reading: the checksum will say so
    done += size_t(n);
  }
  bytes.resize(done);
  return bytes;
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp";
  // Whatever goes wrong below, no half-written temporary file stays behind.
  struct remove_on_failure {
    const std::string& path;
    bool keep = false;
    ~remove_on_failure() {
      if (!keep) ::unlink(path.c_str());
    }
  } cleanup{temporary};
  {
    descriptor d{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (d.fd < 0) throw checkpoint_error(system_error(temporary + ": cannot be created", errno));
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(d.fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw checkpoint_error(system_error(temporary + ": cannot be written", errno));
      done += size_t(n);
    }
    // A full disk may only show here (delayed allocation), or at close.
    if (::fsync(d.fd) != 0)
      throw checkpoint_error(system_error(temporary + ": cannot be flushed to disk", errno));
    const int fd = d.fd;
    d.fd = -1;
    if (::close(fd) != 0) throw checkpoint_error(system_error(temporary + ": cannot be closed", errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw checkpoint_error(system_error(path + ": the new checkpoint cannot be moved into place", errno));
  cleanup.keep = true;
  fsync_directory(path);
}

}  // namespace troupe::model
