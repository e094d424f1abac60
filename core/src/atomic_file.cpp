#include "ooc/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

// The temporary names tried: PATH.tmp-PID, then PATH.tmp-PID-1, ...; one that exists is another
// writer's (a second file of this process at the same path, or a killed run's).
constexpr int kTemporaryNames = 100;

[[noreturn]] void fail(const std::string& what, const fs::path& path, int error) {
  throw IoError(what + " '" + path.string() + "': " + std::strerror(error));
}

// A symbolic link's target (also one that does not exist yet), so that the link stays.
fs::path target_of(const fs::path& path) {
  std::error_code error;
  if (!fs::is_symlink(path, error)) return path;
  fs::path target = fs::weakly_canonical(path, error);
  return error ? path : target;
}

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// Something there that is neither a regular file nor a folder: a device, a pipe, a terminal.
bool written_in_place(const fs::path& target) {
  struct stat st {};
  return ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// Why `target` cannot be written, as an errno value; 0 when it can. A file is replaced, so its
// folder must take new files; one that may not be written is refused all the same, as opening it
// would be.
int why_unwritable(const fs::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return EISDIR;
    if (::access(target.c_str(), W_OK) != 0) return errno;
    if (!S_ISREG(st.st_mode)) return 0;
  } else if (errno != ENOENT) {
    return errno;  // a path through a file (ENOTDIR), a folder that may not be searched
  }
  const fs::path folder = folder_of(target);
  if (::stat(folder.c_str(), &st) != 0) return errno;
  if (!S_ISDIR(st.st_mode)) return ENOTDIR;
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return errno;
  return 0;
}

// A new file beside `target`, named in `name`; -1 with errno when none could be made.
int open_temporary(const fs::path& target, fs::path& name) {
  const std::string stem = target.string() + ".tmp-" + std::to_string(::getpid());
  for (int i = 0; i < kTemporaryNames; ++i) {
    name = i == 0 ? stem : stem + "-" + std::to_string(i);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Makes a rename durable; a folder that cannot be opened or flushed loses only that.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

void check_writable(const fs::path& path, std::string_view label) {
  const int error = why_unwritable(target_of(path));
  if (error == 0) return;
  fail((label.empty() ? "" : std::string(label) + ": ") + "cannot write", path, error);
}

AtomicFile::AtomicFile(const fs::path& path) : path_(path), target_(target_of(path)) {
  if (const int error = why_unwritable(target_)) fail("cannot write", path_, error);
  const int fd = written_in_place(target_) ? ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)
                                           : open_temporary(target_, temp_);
  if (fd < 0) fail("cannot write", path_, errno);
  file_ = ::fdopen(fd, "w");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    fail("cannot write", path_, error);
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

int AtomicFile::fd() const noexcept {
  return ::fileno(file_);
}

void AtomicFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    fail("cannot write", path_, errno);
}

void AtomicFile::commit() {
  std::FILE* const file = std::exchange(file_, nullptr);
  int error = 0;
  if (std::fflush(file) != 0 || std::ferror(file) != 0) error = errno != 0 ? errno : EIO;
  if (error == 0 && !temp_.empty() && ::fsync(::fileno(file)) != 0) error = errno;
  if (std::fclose(file) != 0 && error == 0) error = errno;
  if (error != 0) fail("cannot write", path_, error);
  if (temp_.empty()) {
    committed_ = true;
    return;
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    fail("cannot rename '" + temp_.string() + "' to", path_, errno);
  committed_ = true;
  sync_folder(folder_of(target_));
}

}  // namespace ooc
