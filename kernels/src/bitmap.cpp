#include "ooc/kernels/bitmap.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <bit>

namespace ooc {

Bitmap::Bitmap(std::size_t bits)
    : words_(Buffer<std::uint64_t>::allocate((bits + 63) / 64)), bits_(bits) {
  clear();
}

void Bitmap::clear() {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words_.size(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        words_[i] = 0;
                    });
}

std::size_t Bitmap::count() const {
  return count(0, bits_);
}

std::size_t Bitmap::count(std::size_t first, std::size_t last) const {
  if (first >= last) return 0;
  const std::size_t w0 = first >> 6, w1 = (last - 1) >> 6;
  const auto word_bits = [&](std::size_t w) {
    std::uint64_t word = words_[w];
    if (w == w0) word &= ~std::uint64_t{0} << (first & 63);
    if (w == w1 && (last & 63) != 0) word &= (std::uint64_t{1} << (last & 63)) - 1;
    return static_cast<std::size_t>(std::popcount(word));
  };
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(w0, w1 + 1, 4096), std::size_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::size_t sum) {
        for (std::size_t w = r.begin(); w < r.end(); ++w)
          sum += word_bits(w);
        return sum;
      },
      std::plus<>());
}

}  // namespace ooc
