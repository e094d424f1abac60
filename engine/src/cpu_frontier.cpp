#include <tbb/parallel_for.h>

#include "ooc/engine/detail/cpu_executor.hpp"

namespace ooc::detail {

void CpuFrontier::advance() {
  std::uint64_t* current = current_.words();
  const std::uint64_t* next = next_.words();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, current_.num_words(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t w = r.begin(); w < r.end(); ++w)
                        current[w] |= next[w];
                    });
  next_.clear();
}

}  // namespace ooc::detail
