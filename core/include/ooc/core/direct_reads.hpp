#pragma once
// Reads that bypass the page cache (O_DIRECT) where the file system allows them: offsets, lengths
// and buffers aligned to kDirectAlignment. The storage measure (storage_reads.hpp) and a graph's
// lists read beyond host memory (OocgLists) read so, so that what they time and count is the
// storage's, not the page cache's.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace ooc {

inline constexpr std::uint64_t kDirectAlignment = 4096;

struct FreeAligned {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<std::byte, FreeAligned>;

// `bytes` (rounded up to the alignment) at an aligned address; throws std::bad_alloc.
AlignedBytes aligned_buffer(std::uint64_t bytes);

// A file opened for reading with O_DIRECT, or, where its file system refuses that (EINVAL),
// without. Throws IoError ("cannot open 'PATH': REASON").
class DirectFile {
 public:
  explicit DirectFile(const std::filesystem::path& path);
  ~DirectFile();
  DirectFile(const DirectFile&) = delete;
  DirectFile& operator=(const DirectFile&) = delete;
  int fd() const noexcept { return fd_; }
  bool direct() const noexcept { return direct_; }  // the page cache is bypassed

 private:
  int fd_ = -1;
  bool direct_ = false;
};

// Reads `length` bytes at `offset` into `buffer` (fewer at the end of the file), retrying short
// reads; returns how many, or -errno. Safe from several threads at once.
std::int64_t read_fully(int fd, std::byte* buffer, std::uint64_t length, std::uint64_t offset);

}  // namespace ooc
