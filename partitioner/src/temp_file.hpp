#pragma once
// A file of a bounded build's spilled data (build_bounded): made in the temporary folder without
// a name (O_TMPFILE), so that nothing is left there and the system frees it when the build ends,
// however it ends (an error, a signal, SIGKILL).
#include <cstdint>
#include <filesystem>

namespace ooc::detail {

class TempFile {
 public:
  // Throws IoError naming the folder: "cannot create a temporary file in 'x': No such file or
  // directory (choose another with --tmp-dir)".
  explicit TempFile(const std::filesystem::path& dir);
  ~TempFile();
  TempFile(TempFile&& other) noexcept;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  TempFile& operator=(TempFile&&) = delete;

  // Appends (in parallel pieces when large); not to be called from two threads at once. Throws
  // IoError (a full disk, a file size limit) naming the folder.
  void append(const void* data, std::uint64_t bytes);
  // Reads bytes [offset, offset + bytes), which must have been appended (in parallel pieces when
  // large); safe from any thread.
  void read(void* out, std::uint64_t bytes, std::uint64_t offset) const;
  std::uint64_t size() const noexcept { return size_; }
  // Closes the file, which frees its space; nothing may be read from it after.
  void discard() noexcept;

 private:
  void write_at(const char* p, std::uint64_t bytes, std::uint64_t offset) const;
  void read_at(char* p, std::uint64_t bytes, std::uint64_t offset) const;

  int fd_;
  std::uint64_t size_ = 0;
  std::filesystem::path dir_;
};

}  // namespace ooc::detail
