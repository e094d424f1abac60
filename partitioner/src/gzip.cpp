// Gzip decompression for the text readers, with zlib. The whole text is inflated into memory
// before it is parsed: the parser needs random access to cut it into chunks, and inflating is
// serial anyway.
#include "gzip.hpp"

#define ZLIB_CONST  // next_in points to const bytes: our input is a read-only mapping
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "file_bytes.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"

namespace ooc::detail {
namespace {

// zlib counts in 32-bit unsigned ints: output room is capped below that. Input is fed in
// smaller steps, which are what progress is reported in.
constexpr std::size_t kMaxOutputStep = std::size_t{1} << 30;
constexpr std::size_t kInputStep = std::size_t{16} << 20;
constexpr int kGzipOnlyWindow = 15 + 16;  // deflate window 2^15, gzip wrapper required

class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, kGzipOnlyWindow) != Z_OK)
      throw OutOfMemory("cannot allocate zlib's inflate state");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() noexcept { return stream_; }

 private:
  z_stream stream_{};
};

// Gzip's trailer holds the last member's length modulo 2^32: exact for the usual single
// member under 4 GiB, so the output then never needs to grow; otherwise a guess that grows.
std::size_t expected_size(std::span<const char> compressed) {
  std::uint32_t isize = 0;
  if (compressed.size() >= 4) {
    for (std::size_t i = 0; i < 4; ++i) {
      const auto byte = static_cast<unsigned char>(compressed[compressed.size() - 4 + i]);
      isize |= static_cast<std::uint32_t>(byte) << (8 * i);
    }
  }
  return isize >= compressed.size() ? std::size_t{isize} + 1 : 4 * compressed.size() + 1;
}

[[noreturn]] void corrupt(std::string_view name) {
  throw IoError(std::string(name) + ": corrupt or truncated gzip data");
}

}  // namespace

bool is_gzip(const std::filesystem::path& path, std::span<const char> bytes) noexcept {
  if (path.extension() == ".gz") return true;
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Buffer<char> gunzip(std::span<const char> compressed, std::string_view name) {
  ByteSink out(expected_size(compressed));
  ProgressStep progress("decompressing " + std::filesystem::path(name).filename().string(),
                        compressed.size());
  Inflater inflater;
  z_stream& z = inflater.stream();
  auto in = reinterpret_cast<const Bytef*>(compressed.data());
  std::size_t in_left = compressed.size();
  for (;;) {
    if (z.avail_in == 0 && in_left > 0) {
      const std::size_t step = std::min(in_left, kInputStep);
      z.next_in = in;
      z.avail_in = static_cast<uInt>(step);
      in += step;
      in_left -= step;
      progress.advance(step);
    }
    const std::span<char> space = out.spare(1);
    const auto room = static_cast<uInt>(std::min(space.size(), kMaxOutputStep));
    z.next_out = reinterpret_cast<Bytef*>(space.data());
    z.avail_out = room;
    const int rc = inflate(&z, Z_NO_FLUSH);
    out.commit(room - z.avail_out);
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0 && in_left == 0) break;
      inflateReset(&z);  // another member follows (files made with `cat a.gz b.gz`)
    } else if (rc != Z_OK) {
      corrupt(name);  // Z_BUF_ERROR here means the input ended inside a member
    }
  }
  return std::move(out).take();
}

}  // namespace ooc::detail
