#pragma once
// A parallel exclusive prefix sum (oneTBB), shared by the partitioner's builds and the engine's
// host-side passes.
#include <tbb/blocked_range.h>
#include <tbb/parallel_scan.h>

#include <cstddef>

namespace ooc::detail {

// In-place exclusive prefix sum of data[0, n); returns the total.
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

}  // namespace ooc::detail
