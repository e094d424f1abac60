#pragma once
// Chunk partitioning (HyTGraph §IV, after Scaph and Graphie): contiguous vertex ranges whose
// edge data is about `partition_bytes` each. A vertex whose edges alone exceed a partition gets
// a partition of its own. Computed from the offsets alone, in O(partitions * log V). A graph with
// in-edges (Graph::in_edges) is cut so that each partition's in-lists fit the size too: the pull
// direction moves a partition's in-lists as the push direction moves its out-lists.
#include <cstdint>
#include <utility>
#include <vector>

#include "ooc/partitioner/graph.hpp"

namespace ooc {

inline constexpr std::uint64_t kDefaultPartitionBytes = std::uint64_t{32} << 20;  // HyTGraph §V-B
// Every partition is surveyed, priced and scheduled in every iteration, so a size that splits a
// large graph into millions of partitions makes each iteration crawl (docs/cli.md has the
// figures). More than this many partitions is refused.
inline constexpr std::uint64_t kMaxPartitions = std::uint64_t{1} << 16;

struct Partition {
  vid_t first_vertex = 0;  // [first_vertex, last_vertex)
  vid_t last_vertex = 0;
  eid_t first_edge = 0;  // [first_edge, last_edge)
  eid_t last_edge = 0;
  vid_t num_vertices() const noexcept { return last_vertex - first_vertex; }
  eid_t num_edges() const noexcept { return last_edge - first_edge; }
};

// bytes_per_edge: 4 for targets only, 8 with weights (Graph::bytes_per_edge()). Throws
// InvalidInput when a partition cannot hold one edge, or when there would be more than
// kMaxPartitions partitions (the message names the smallest size that gives few enough).
std::vector<Partition> partition_by_edges(const Graph& graph, std::uint64_t partition_bytes,
                                          std::uint32_t bytes_per_edge);

// Appends the vertex range [first, last) to `ranges`, joined to the last one where they meet.
void append_range(std::vector<std::pair<vid_t, vid_t>>& ranges, vid_t first, vid_t last);

// A graph beyond host memory (EngineOptions::host_memory): which partitions host memory keeps.
// Each is priced at the list bytes `graph` holds for it (raw targets and weights, compressed
// lists and packed weights: a part of the file read as a run reads it, its arrays spanning the
// file's), and kept in partition order while they fit `budget` (hub sort puts the hubs, whose
// lists most iterations read, first); the others are read from the file when a task needs them.
// `candidates` (empty: every partition) limits the plan to a rank's own partitions: the others
// are neither kept nor counted in list_bytes.
struct HostMemoryPlan {
  std::vector<bool> kept;                            // per partition
  std::vector<std::pair<vid_t, vid_t>> kept_ranges;  // their vertex ranges, merged
  std::uint64_t kept_bytes = 0, list_bytes = 0;      // of the lists kept, and of all of them
  std::uint32_t kept_partitions = 0;
};
HostMemoryPlan plan_host_memory(const Graph& graph, const std::vector<Partition>& parts,
                                std::uint64_t budget, const std::vector<bool>& candidates = {});

}  // namespace ooc
