#pragma once
// Chunk partitioning (HyTGraph §IV, after Scaph and Graphie): contiguous vertex ranges whose
// edge data is about `partition_bytes` each. A vertex whose edges alone exceed a partition gets
// a partition of its own. Computed from the offsets alone, in O(partitions * log V).
#include <cstdint>
#include <vector>

#include "ooc/partitioner/graph.hpp"

namespace ooc {

inline constexpr std::uint64_t kDefaultPartitionBytes = std::uint64_t{32} << 20;  // HyTGraph §V-B

struct Partition {
  vid_t first_vertex = 0;  // [first_vertex, last_vertex)
  vid_t last_vertex = 0;
  eid_t first_edge = 0;  // [first_edge, last_edge)
  eid_t last_edge = 0;
  vid_t num_vertices() const noexcept { return last_vertex - first_vertex; }
  eid_t num_edges() const noexcept { return last_edge - first_edge; }
};

// bytes_per_edge: 4 for targets only, 8 with weights (Graph::bytes_per_edge()).
std::vector<Partition> partition_by_edges(const Graph& graph, std::uint64_t partition_bytes,
                                          std::uint32_t bytes_per_edge);

}  // namespace ooc
