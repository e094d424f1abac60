#include "ooc/core/direct_reads.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "ooc/core/error.hpp"

namespace ooc {

AlignedBytes aligned_buffer(std::uint64_t bytes) {
  const std::uint64_t rounded = (std::max<std::uint64_t>(bytes, 1) + kDirectAlignment - 1) /
                                kDirectAlignment * kDirectAlignment;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kDirectAlignment, rounded));
  if (p == nullptr) throw std::bad_alloc();
  return AlignedBytes(p);
}

DirectFile::DirectFile(const std::filesystem::path& path)
    : fd_(::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC)), direct_(fd_ >= 0) {
  if (fd_ < 0 && errno == EINVAL) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw IoError("cannot open '" + path.string() + "': " + std::strerror(errno));
}

DirectFile::~DirectFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::int64_t read_fully(int fd, std::byte* buffer, std::uint64_t length, std::uint64_t offset) {
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t got =
        ::pread(fd, buffer + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -errno;
    if (got == 0) break;
    done += static_cast<std::uint64_t>(got);
  }
  return static_cast<std::int64_t>(done);
}

}  // namespace ooc
