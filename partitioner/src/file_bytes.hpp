#pragma once
// A file's bytes in memory, for the text readers: a regular file is read in parallel blocks,
// anything else (a pipe, /dev/stdin) to its end. ByteSink is the
// growing buffer behind the second case and behind gzip decompression, where the final length
// is not known in advance.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "ooc/core/buffer.hpp"

namespace ooc::detail {

// Throws IoError: "cannot open 'x': No such file or directory", "cannot read 'x': ...".
Buffer<char> read_file_bytes(const std::filesystem::path& path);

// A file opened for reading, closed when it goes. Throws IoError "cannot open 'x': ...".
class FileDescriptor {
 public:
  explicit FileDescriptor(const std::filesystem::path& path);
  ~FileDescriptor();
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

// What remains to be read from `fd` (a pipe), to its end. Throws IoError.
Buffer<char> read_to_end(int fd, const std::filesystem::path& path);

// Exactly `bytes` bytes of the file at `offset` into `out` (pread, retried until done; safe to
// call from several threads at once). Throws IoError, also when the file ends before.
void read_exactly(int fd, char* out, std::size_t bytes, std::size_t offset,
                  const std::filesystem::path& path);
// Calls io(at, bytes) for the pieces of [0, total) of `piece` bytes each (the last shorter), in
// parallel when there are several.
template <class Io>
void for_each_piece(std::uint64_t total, std::uint64_t piece, Io&& io) {
  const std::uint64_t pieces = (total + piece - 1) / piece;
  if (pieces <= 1) {
    io(std::uint64_t{0}, total);
    return;
  }
  tbb::parallel_for(std::uint64_t{0}, pieces,
                    [&](std::uint64_t p) { io(p * piece, std::min(piece, total - p * piece)); });
}

// read_exactly in parallel pieces of a few MiB: one thread copying from the page cache moves a few
// GB/s, below what a disk array or the cache itself delivers.
void read_in_parallel(int fd, char* out, std::size_t bytes, std::size_t offset,
                      const std::filesystem::path& path);

class ByteSink {
 public:
  explicit ByteSink(std::size_t initial_capacity);
  // Writable space after the bytes kept so far, at least `at_least` bytes long: the capacity
  // doubles when it is not, so that filling n bytes costs O(n) copying in all.
  std::span<char> spare(std::size_t at_least);
  void commit(std::size_t bytes) noexcept { size_ += bytes; }
  std::size_t size() const noexcept { return size_; }
  Buffer<char> take() &&;

 private:
  Buffer<char> bytes_;
  std::size_t size_ = 0;
};

}  // namespace ooc::detail
