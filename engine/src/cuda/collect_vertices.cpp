// Host side of a compaction task: the vertices it covers, read from the work bitmap the GPU
// copied back, in ascending order (ranges in parallel).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "ooc/core/types.hpp"

namespace ooc::detail {

void collect_vertices(const std::uint64_t* words, std::span<const vid_t> first,
                      std::span<const vid_t> last, std::vector<vid_t>& out) {
  std::vector<std::vector<vid_t>> per_range(first.size());
  tbb::parallel_for(std::size_t{0}, first.size(), [&](std::size_t r) {
    for (std::uint64_t v = first[r]; v < last[r];) {
      const std::uint64_t w = v >> 6;
      const std::uint64_t end = std::min<std::uint64_t>(last[r], (w + 1) << 6);
      std::uint64_t bits = words[w] & (~std::uint64_t{0} << (v & 63));
      if (end < (w + 1) << 6) bits &= (std::uint64_t{1} << (end & 63)) - 1;
      for (; bits != 0; bits &= bits - 1) {
        per_range[r].push_back(
            static_cast<vid_t>((w << 6) + static_cast<std::uint64_t>(std::countr_zero(bits))));
      }
      v = end;
    }
  });
  out.clear();
  for (const auto& list : per_range)
    out.insert(out.end(), list.begin(), list.end());
}

}  // namespace ooc::detail
