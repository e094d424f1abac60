// Chunk partitioning: each partition takes vertices until its edges would exceed the byte
// budget; a binary search over the offsets finds each boundary.
#include "ooc/partitioner/partition.hpp"

#include <algorithm>

#include "ooc/core/error.hpp"

namespace ooc {

std::vector<Partition> partition_by_edges(const Graph& g, std::uint64_t partition_bytes,
                                          std::uint32_t bytes_per_edge) {
  if (partition_bytes < bytes_per_edge || bytes_per_edge == 0) {
    throw InvalidInput("partition size must hold at least one edge (" +
                       std::to_string(bytes_per_edge) + " bytes)");
  }
  const eid_t capacity = partition_bytes / bytes_per_edge;
  const vid_t n = g.num_vertices();
  const eid_t* offsets = g.offsets.data();
  std::vector<Partition> parts;
  vid_t first = 0;
  while (first < n) {
    // Largest last with offsets[last] <= offsets[first] + capacity, but at least first + 1.
    const eid_t limit = offsets[first] + capacity;
    const eid_t* bound = std::upper_bound(offsets + first + 1, offsets + n + 1, limit);
    auto last = static_cast<vid_t>(bound - offsets - 1);
    last = std::max(last, first + 1);
    parts.push_back({first, last, offsets[first], offsets[last]});
    first = last;
  }
  return parts;
}

}  // namespace ooc
