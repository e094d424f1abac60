#pragma once
// Small parallel building blocks of the partitioner (oneTBB).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ooc/core/buffer.hpp"

namespace ooc::detail {

// In-place exclusive prefix sum; returns the total.
template <class T>
T exclusive_scan(T* data, std::size_t n) {
  return tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, n, 1 << 16), T{0},
      [&](const tbb::blocked_range<std::size_t>& r, T sum, bool final_pass) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          const T value = data[i];
          if (final_pass) data[i] = sum;
          sum += value;
        }
        return sum;
      },
      [](T a, T b) { return a + b; });
}

template <class T>
void parallel_fill(T* data, std::size_t n, T value) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        data[i] = value;
                    });
}

// The smallest index in [0, count) for which bad(i) holds, or count: the same whatever the thread
// timing, so that an error message naming it is too.
template <class Bad>
std::uint64_t first_bad(std::uint64_t count, Bad&& bad) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, count), count,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i) {
          if (bad(i)) return i;
        }
        return found;
      },
      [](std::uint64_t a, std::uint64_t b) { return a < b ? a : b; });
}

inline void parallel_copy_bytes(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t kChunk = std::size_t{4} << 20;
  tbb::parallel_for(std::size_t{0}, (bytes + kChunk - 1) / kChunk, [&](std::size_t c) {
    const std::size_t begin = c * kChunk;
    const std::size_t len = begin + kChunk < bytes ? kChunk : bytes - begin;
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, len);
  });
}

}  // namespace ooc::detail
