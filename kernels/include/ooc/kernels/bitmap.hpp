#pragma once
// A host bitmap of vertices: the CPU backend's frontier (current and next active sets). Bits are
// set with atomics by the parallel loops; counting and clearing are parallel too.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "ooc/core/buffer.hpp"

namespace ooc {

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(std::size_t bits);

  std::size_t size() const noexcept { return bits_; }
  bool test(std::size_t i) const noexcept { return (words_[i >> 6] >> (i & 63)) & 1u; }
  // Returns true when this call set the bit (it was clear before).
  bool set_atomic(std::size_t i) noexcept {
    const std::uint64_t mask = std::uint64_t{1} << (i & 63);
    return (std::atomic_ref<std::uint64_t>(words_[i >> 6])
                .fetch_or(mask, std::memory_order_relaxed) &
            mask) == 0;
  }
  void set(std::size_t i) noexcept { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void reset(std::size_t i) noexcept { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  // Clears bit i and says whether it was set (safe against concurrent set_atomic).
  bool take_atomic(std::size_t i) noexcept {
    const std::uint64_t mask = std::uint64_t{1} << (i & 63);
    return (std::atomic_ref<std::uint64_t>(words_[i >> 6])
                .fetch_and(~mask, std::memory_order_relaxed) &
            mask) != 0;
  }

  void clear();                                                  // parallel
  std::size_t count() const;                                     // parallel
  std::size_t count(std::size_t first, std::size_t last) const;  // bits in [first, last)
  std::uint64_t* words() noexcept { return words_.data(); }
  const std::uint64_t* words() const noexcept { return words_.data(); }
  std::size_t num_words() const noexcept { return words_.size(); }
  void swap(Bitmap& other) noexcept {
    words_.swap(other.words_);
    std::swap(bits_, other.bits_);
  }

 private:
  Buffer<std::uint64_t> words_;
  std::size_t bits_ = 0;
};

}  // namespace ooc
