#include "temp_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "ooc/core/error.hpp"

namespace ooc::detail {
namespace {

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
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd_, p, bytes, static_cast<off_t>(size_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      fail("cannot write", dir_);
    }
    p += n;
    size_ += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::uint64_t>(n);
  }
}

void TempFile::read(void* out, std::uint64_t bytes, std::uint64_t offset) const {
  char* p = static_cast<char*>(out);
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
