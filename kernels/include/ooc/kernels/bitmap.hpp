#pragma once
// A host bitmap of vertices: the CPU backend's frontier (current and next active sets). Bits are
// set with atomics by the parallel loops; counting and clearing are parallel too.
#include <atomic>
#include <bit>
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

  void clear();                                                  // parallel
  std::size_t count() const;                                     // parallel
  std::size_t count(std::size_t first, std::size_t last) const;  // bits in [first, last)
  std::uint64_t* words() noexcept { return words_.data(); }
  const std::uint64_t* words() const noexcept { return words_.data(); }
  std::size_t num_words() const noexcept { return words_.size(); }
  // Calls f(i) for every set bit i in [first, last), in increasing order.
  template <class F>
  void for_each_set(std::size_t first, std::size_t last, F&& f) const {
    if (first >= last) return;
    for (std::size_t w = first >> 6; w <= (last - 1) >> 6; ++w) {
      std::uint64_t word = words_[w];
      if (w == first >> 6) word &= ~std::uint64_t{0} << (first & 63);
      if (w == (last - 1) >> 6 && (last & 63) != 0) word &= (std::uint64_t{1} << (last & 63)) - 1;
      while (word != 0) {
        f((w << 6) + static_cast<std::size_t>(std::countr_zero(word)));
        word &= word - 1;
      }
    }
  }

  void swap(Bitmap& other) noexcept {
    words_.swap(other.words_);
    std::swap(bits_, other.bits_);
  }

 private:
  Buffer<std::uint64_t> words_;
  std::size_t bits_ = 0;
};

}  // namespace ooc
