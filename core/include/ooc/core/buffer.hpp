#pragma once
// Host arrays for graph data. Large arrays are never zero-filled on allocation (whoever fills
// them touches them first, in parallel), and where their memory comes from is a strategy:
// plain pages (the default), pinned and mapped CUDA memory (the transfer layer provides it),
// or a view into a memory-mapped file that a shared owner keeps alive.
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace ooc {

class HostMemory {
 public:
  virtual ~HostMemory() = default;
  // Returns at least `bytes` bytes aligned to 64; throws OutOfMemory.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void deallocate(void* p, std::size_t bytes) noexcept = 0;
  virtual std::string_view name() const = 0;
};

// Anonymous pages, large allocations advised to use transparent huge pages.
HostMemory& default_host_memory();

// The same, for arrays of which only a part is ever touched (a rank's share of a graph's edges):
// large allocations are mapped with MAP_NORESERVE. Both commit pages on first write, but under
// Linux's default overcommit heuristic (vm.overcommit_memory=0) one mapping larger than RAM plus
// swap is refused unless it reserves nothing, so without the flag a rank could not even address a
// graph larger than its host. Touching more than the host holds ends in the OOM killer, not an
// exception, as with any overcommitted memory; under vm.overcommit_memory=2 the kernel ignores
// the flag and accounts the mapping in full (refused: OutOfMemory).
HostMemory& sparse_host_memory();

// Linux's transparent huge page mode, the bracketed word of `enabled` (normally
// /sys/kernel/mm/transparent_hugepage/enabled: "always [madvise] never" gives "madvise"); empty
// when it cannot be read. Large allocations of both memories above ask for huge pages
// (MADV_HUGEPAGE), which the kernel grants under "always" and "madvise" only; a GPU copies from
// memory pinned in place on 4 KiB pages at about 60% of the link (docs/distributed.md).
std::string transparent_huge_pages(
    const std::string& enabled = "/sys/kernel/mm/transparent_hugepage/enabled");

template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer holds plain data only");

 public:
  Buffer() = default;
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    Buffer(std::move(other)).swap(*this);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() = default;

  // Uninitialised storage for n elements.
  static Buffer allocate(std::size_t n, HostMemory& memory = default_host_memory()) {
    Buffer b;
    if (n == 0) return b;
    const std::size_t bytes = n * sizeof(T);
    void* p = memory.allocate(bytes);
    b.owner_ = std::shared_ptr<void>(p, [&memory, bytes](void* q) { memory.deallocate(q, bytes); });
    b.data_ = static_cast<T*>(p);
    b.size_ = n;
    return b;
  }

  // A view of memory that `owner` keeps alive (a mapped file, another buffer's storage).
  static Buffer view(T* data, std::size_t n, std::shared_ptr<void> owner) {
    Buffer b;
    b.data_ = data;
    b.size_ = n;
    b.owner_ = std::move(owner);
    return b;
  }

  static Buffer copy_of(std::span<const T> values, HostMemory& memory = default_host_memory()) {
    Buffer b = allocate(values.size(), memory);
    if (!values.empty()) std::memcpy(b.data_, values.data(), values.size_bytes());
    return b;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  std::span<T> span() noexcept { return {data_, size_}; }
  std::span<const T> span() const noexcept { return {data_, size_}; }

  // Forgets the last elements; the memory stays allocated.
  void shrink(std::size_t n) noexcept {
    if (n < size_) size_ = n;
  }
  void swap(Buffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    owner_.swap(other.owner_);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<void> owner_;
};

}  // namespace ooc
