#include "temp_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "file_bytes.hpp"
#include "ooc/core/error.hpp"

namespace ooc::detail {
namespace {

// Larger reads and appends are cut into pieces of this size, done in parallel: one thread copying
// from or into the page cache moves a few GB/s, well below what the memory and the disk take.
constexpr std::uint64_t kPieceBytes = std::uint64_t{8} << 20;

[[noreturn]] void fail(std::string_view what, const std::filesystem::path& dir) {
  throw IoError(std::string(what) + " a temporary file in '" + dir.string() +
                "': " + std::strerror(errno) + " (choose another folder with --tmp-dir)");
}

}  // namespace

// O_TMPFILE makes a file that never has a name; where the file system cannot, a named one is
// unlinked at once.
TempFile::TempFile(const std::filesystem::path& dir) : dir_(dir) {
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) return;
  if (errno != EOPNOTSUPP && errno != EISDIR) fail("cannot create", dir);
  std::string name = (dir / ".partition-tool-XXXXXX").string();
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) fail("cannot create", dir);
  ::unlink(name.c_str());
}

TempFile::~TempFile() {
  discard();
}

void TempFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

TempFile::TempFile(TempFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), dir_(std::move(other.dir_)) {}

void TempFile::append(const void* data, std::uint64_t bytes) {
  for_each_piece(bytes, kPieceBytes, [&](std::uint64_t at, std::uint64_t length) {
    write_at(static_cast<const char*>(data) + at, length, size_ + at);
  });
  size_ += bytes;
}

void TempFile::write_at(const char* p, std::uint64_t bytes, std::uint64_t offset) const {
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd_, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      fail("cannot write", dir_);
    }
    p += n;
    offset += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::uint64_t>(n);
  }
}

void TempFile::read(void* out, std::uint64_t bytes, std::uint64_t offset) const {
  for_each_piece(bytes, kPieceBytes, [&](std::uint64_t at, std::uint64_t length) {
    read_at(static_cast<char*>(out) + at, length, offset + at);
  });
}

void TempFile::read_at(char* p, std::uint64_t bytes, std::uint64_t offset) const {
  while (bytes > 0) {
    const ssize_t n = ::pread(fd_, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // shorter than what was appended: the file was cut
      fail("cannot read", dir_);
    }
    p += n;
    offset += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::uint64_t>(n);
  }
}

}  // namespace ooc::detail
