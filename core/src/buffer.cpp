#include "ooc/core/buffer.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace ooc {
namespace {

// Below this size malloc is fine; above it, whole pages straight from the kernel so that a
// multi-gigabyte edge array can use huge pages and is returned to the system when freed.
constexpr std::size_t kMmapThreshold = std::size_t{2} << 20;

class PageMemory final : public HostMemory {
 public:
  PageMemory(int mmap_flags, std::string_view name) : mmap_flags_(mmap_flags), name_(name) {}
  void* allocate(std::size_t bytes) override {
    if (bytes < kMmapThreshold) {
      void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
      if (p == nullptr) throw_oom(bytes, "aligned_alloc");
      return p;
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, mmap_flags_, -1, 0);
    if (p == MAP_FAILED) throw_oom(bytes, "mmap");
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
    return p;
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    if (bytes < kMmapThreshold) {
      std::free(p);
    } else {
      munmap(p, bytes);
    }
  }
  std::string_view name() const override { return name_; }

 private:
  [[noreturn]] static void throw_oom(std::size_t bytes, const char* how) {
    throw OutOfMemory("cannot allocate " + format_bytes(bytes) + " of host memory (" + how + ": " +
                      std::strerror(errno) + ")");
  }

  int mmap_flags_;
  std::string_view name_;
};

}  // namespace

HostMemory& default_host_memory() {
  static PageMemory memory(MAP_PRIVATE | MAP_ANONYMOUS, "pageable");
  return memory;
}

HostMemory& sparse_host_memory() {
  static PageMemory memory(MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, "sparse pageable");
  return memory;
}

std::string transparent_huge_pages(const std::string& enabled) {
  std::ifstream in(enabled);
  std::string line;
  if (!std::getline(in, line)) return {};
  const std::size_t open = line.find('['), close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

}  // namespace ooc
