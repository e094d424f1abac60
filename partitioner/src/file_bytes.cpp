// Reading a whole input file for the text readers: regular files are read in parallel blocks,
// pipes to the end. Never mapped: a mapped file that another program truncates kills the process
// with SIGBUS, where a read gives an error that names the file.
#include "file_bytes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc::detail {
namespace {

constexpr std::size_t kReadStep = std::size_t{1} << 20;

[[noreturn]] void throw_io(std::string_view what, const std::filesystem::path& path, int error) {
  throw IoError(std::string(what) + " '" + path.string() + "': " + std::strerror(error));
}

// The file's `size` bytes (as fstat saw them), read in parallel pieces.
Buffer<char> read_regular(int fd, std::size_t size, const std::filesystem::path& path) {
  auto bytes = Buffer<char>::allocate(size);
  read_in_parallel(fd, bytes.data(), size, 0, path);
  return bytes;
}

}  // namespace

FileDescriptor::FileDescriptor(const std::filesystem::path& path)
    : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw_io("cannot open", path, errno);
}

FileDescriptor::~FileDescriptor() {
  ::close(fd_);
}

void read_in_parallel(int fd, char* out, std::size_t bytes, std::size_t offset,
                      const std::filesystem::path& path) {
  for_each_piece(bytes, std::uint64_t{4} << 20, [&](std::uint64_t at, std::uint64_t length) {
    read_exactly(fd, out + at, length, offset + at, path);
  });
}

void read_exactly(int fd, char* out, std::size_t bytes, std::size_t offset,
                  const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd, out + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_io("cannot read", path, errno);
    if (n == 0) {
      throw IoError("cannot read '" + path.string() + "': it was truncated while being read");
    }
    done += static_cast<std::size_t>(n);
  }
}

Buffer<char> read_to_end(int fd, const std::filesystem::path& path) {
  ByteSink sink(kReadStep);
  for (;;) {
    const std::span<char> space = sink.spare(kReadStep);
    const ssize_t n = ::read(fd, space.data(), space.size());
    if (n == 0) break;
    if (n > 0) {
      sink.commit(static_cast<std::size_t>(n));
    } else if (errno != EINTR) {
      throw_io("cannot read", path, errno);
    }
  }
  return std::move(sink).take();
}

Buffer<char> read_file_bytes(const std::filesystem::path& path) {
  const FileDescriptor file(path);
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) throw_io("cannot read", path, errno);
  if (S_ISDIR(info.st_mode)) throw_io("cannot read", path, EISDIR);
  if (S_ISREG(info.st_mode))
    return read_regular(file.get(), static_cast<std::size_t>(info.st_size), path);
  return read_to_end(file.get(), path);
}

ByteSink::ByteSink(std::size_t initial_capacity)
    : bytes_(Buffer<char>::allocate(std::max<std::size_t>(initial_capacity, 1))) {}

std::span<char> ByteSink::spare(std::size_t at_least) {
  if (bytes_.size() - size_ < at_least) {
    auto bigger = Buffer<char>::allocate(std::max(2 * bytes_.size(), size_ + at_least));
    std::memcpy(bigger.data(), bytes_.data(), size_);
    bytes_ = std::move(bigger);
  }
  return {bytes_.data() + size_, bytes_.size() - size_};
}

Buffer<char> ByteSink::take() && {
  bytes_.shrink(size_);
  return std::move(bytes_);
}

}  // namespace ooc::detail
