// The median, fastest and slowest of a set of timed runs.
#include "timing.hpp"

#include <algorithm>

#include "ooc/core/error.hpp"

namespace pcie_bench {

Sample summarize(std::vector<double> ms) {
  if (ms.empty()) throw ooc::InvalidInput("no timed run to summarize");
  std::sort(ms.begin(), ms.end());
  const std::size_t mid = ms.size() / 2;
  const double median = ms.size() % 2 == 1 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  return {median, ms.front(), ms.back()};
}

}  // namespace pcie_bench
