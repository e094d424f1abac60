#pragma once
// Output files that appear whole or not at all. An AtomicFile is written under a temporary name
// beside its path, PATH.tmp-PID, and commit() flushes it to disk and renames it over the path:
// a write that fails, throws or is interrupted leaves no half-written file there, and a file
// already at the path stays as it was (the destructor removes the temporary one; only a killed
// process leaves it behind). A path that names something other than a regular file (/dev/null, a
// pipe, a terminal) is written in place, and a symbolic link's target is replaced, not the link.
//
// check_writable says before long work whether a path can be written, so that a run is not lost
// to a mistyped folder; it creates nothing, and AtomicFile refuses what it refuses.
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace ooc {

// Throws IoError "LABEL: cannot write 'PATH': REASON" (without "LABEL: " when it is empty), where
// REASON is the system's: the folder is missing, not a folder or not writable, or PATH is a
// folder or a file that may not be written. `label` says what the path is to the user (a tool's
// option, "--output").
void check_writable(const std::filesystem::path& path, std::string_view label = {});

class AtomicFile {
 public:
  // Creates the temporary file (mode 0666 less the umask). Throws IoError "cannot write 'PATH':
  // REASON", as check_writable does.
  explicit AtomicFile(const std::filesystem::path& path);
  // Removes the temporary file unless commit() renamed it.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // For buffered writes (fwrite, fprintf); an error shows at commit().
  std::FILE* get() const noexcept { return file_; }
  // A buffered write; throws IoError naming the path when not all of `text` was taken.
  void write(std::string_view text);
  // For pwrite, from any thread, at any offset; not mixed with buffered writes.
  int fd() const noexcept;
  // The path it was given, which error messages name.
  const std::filesystem::path& path() const noexcept { return path_; }

  // Flushes what was written to disk, closes and renames it over the path (and flushes the
  // folder). Throws IoError naming the path when any of it failed; the path is then untouched.
  void commit();

 private:
  std::filesystem::path path_;    // as given
  std::filesystem::path target_;  // what is replaced: path_, or a link's target
  std::filesystem::path temp_;    // empty: written in place
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace ooc
