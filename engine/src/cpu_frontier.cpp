#include "ooc/engine/detail/cpu_frontier.hpp"

#include <tbb/parallel_for.h>

namespace ooc::detail {

void CpuFrontier::advance(const Bitmap* owned) {
  std::uint64_t* current = current_.words();
  const std::uint64_t* next = next_.words();
  const std::uint64_t* mask = owned != nullptr ? owned->words() : nullptr;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, current_.num_words(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t w = r.begin(); w < r.end(); ++w)
                        current[w] |= mask != nullptr ? next[w] & mask[w] : next[w];
                    });
  next_.clear();
}

}  // namespace ooc::detail
