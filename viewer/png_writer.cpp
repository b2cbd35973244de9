#include "viewer/png_writer.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>

namespace troupe::viewer {

namespace {

// libpng reports errors through a callback that must not return. Throwing
// through libpng's C frames is not portable, so the callback keeps the message
// and longjmps back into `encode`, which holds no C++ objects with
// destructors between setjmp and the jump.
struct error_slot {
  char message[256] = "";
};

void on_error(png_structp png, png_const_charp message) {
  auto* slot = static_cast<error_slot*>(png_get_error_ptr(png));
  std::snprintf(slot->message, sizeof slot->message, "%s", message ? message : "libpng error");
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

// Returns false with `slot` filled on a libpng error.
bool encode(std::FILE* file, const envs::rgb_frame& frame, error_slot& slot) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &slot, on_error, on_warning);
  if (png == nullptr) {
    std::snprintf(slot.message, sizeof slot.message, "libpng could not allocate its writer");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(slot.message, sizeof slot.message, "libpng could not allocate its info");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, static_cast<png_uint_32>(frame.width),
               static_cast<png_uint_32>(frame.height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 3);  // fast: recordings write one PNG per frame
  png_write_info(png, info);
  const size_t stride = static_cast<size_t>(frame.width) * 3;
  for (int y = 0; y < frame.height; ++y)
    png_write_row(png, const_cast<png_bytep>(frame.pixels.data() + y * stride));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

void write_png(const std::string& path, const envs::rgb_frame& frame) {
  const auto fail = [&](const std::string& why) {
    return png_error("cannot write PNG '" + path + "': " + why);
  };
  if (frame.width <= 0 || frame.height <= 0)
    throw fail("the frame is empty (" + std::to_string(frame.width) + "x" +
               std::to_string(frame.height) + ")");
  const size_t expected = static_cast<size_t>(frame.width) * frame.height * 3;
  if (frame.pixels.size() != expected)
    throw fail("the frame holds " + std::to_string(frame.pixels.size()) + " bytes, not the " +
               std::to_string(expected) + " of " + std::to_string(frame.width) + "x" +
               std::to_string(frame.height) + " RGB");

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw fail(std::strerror(errno));
  error_slot slot;
  const bool encoded = encode(file, frame, slot);
  const bool write_failed = std::ferror(file) != 0;
  const int saved_errno = errno;
  const bool close_failed = std::fclose(file) != 0;
  if (!encoded) throw fail(slot.message);
  if (write_failed || close_failed) throw fail(std::strerror(saved_errno));
}

}  // namespace troupe::viewer
