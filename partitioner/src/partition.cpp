// Chunk partitioning: each partition takes vertices until its edges would exceed the byte
// budget; a binary search over the offsets finds each boundary.
#include "ooc/partitioner/partition.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace ooc {
namespace {

// The largest last with offsets[last] <= offsets[first] + capacity.
vid_t last_within(const eid_t* offsets, vid_t n, vid_t first, eid_t capacity) {
  const eid_t* bound = std::upper_bound(offsets + first + 1, offsets + std::size_t{n} + 1,
                                        offsets[first] + capacity);
  return static_cast<vid_t>(bound - offsets - 1);
}

// The partitions of `capacity` edges each, out-edges and in-edges (when the graph has them);
// stops (and returns what it has) once there are more than `max_parts`.
std::vector<Partition> split(const Graph& g, eid_t capacity, std::uint64_t max_parts) {
  const vid_t n = g.num_vertices();
  const eid_t* offsets = g.offsets.data();
  std::vector<Partition> parts;
  vid_t first = 0;
  while (first < n && parts.size() <= max_parts) {
    vid_t last = last_within(offsets, n, first, capacity);
    if (g.has_in_edges())
      last = std::min(last, last_within(g.in_edges.offsets.data(), n, first, capacity));
    last = std::max(last, first + 1);
    parts.push_back({first, last, offsets[first], offsets[last]});
    first = last;
  }
  return parts;
}

[[noreturn]] void too_many(const Graph& g, std::uint64_t partition_bytes,
                           std::uint32_t bytes_per_edge) {
  // The smallest larger power of two that gives few enough (the count only falls as the size
  // grows; each try stops after kMaxPartitions + 1 partitions).
  std::uint64_t enough = std::bit_ceil(partition_bytes + 1);
  while (split(g, enough / bytes_per_edge, kMaxPartitions).size() > kMaxPartitions)
    enough *= 2;
  throw InvalidInput("partition size " + format_bytes(partition_bytes) + " splits the " +
                     format_bytes(g.num_edges() * bytes_per_edge) + " of edges into more than " +
                     with_commas(kMaxPartitions) +
                     " partitions, the most allowed, since each is surveyed and scheduled in "
                     "every iteration: use " +
                     format_bytes(enough) + " or more (the default is " +
                     format_bytes(kDefaultPartitionBytes) + ")");
}

}  // namespace

std::vector<Partition> partition_by_edges(const Graph& g, std::uint64_t partition_bytes,
                                          std::uint32_t bytes_per_edge) {
  if (partition_bytes < bytes_per_edge || bytes_per_edge == 0) {
    throw InvalidInput("partition size must hold at least one edge (" +
                       std::to_string(bytes_per_edge) + " bytes)");
  }
  // split() stops after kMaxPartitions + 1: a tiny size costs no more than a refusal.
  std::vector<Partition> parts = split(g, partition_bytes / bytes_per_edge, kMaxPartitions);
  if (parts.size() > kMaxPartitions) too_many(g, partition_bytes, bytes_per_edge);
  return parts;
}

namespace {

std::uint64_t list_bytes(const Graph& g, const Partition& p) {
  const eid_t edges = g.offsets[p.last_vertex] - g.offsets[p.first_vertex];
  std::uint64_t bytes = 0;
  if (g.has_raw_lists()) bytes += edges * sizeof(vid_t);
  if (!g.weights.empty()) bytes += edges * sizeof(std::uint32_t);
  if (!g.compressed.empty()) {
    bytes += g.compressed.offsets[p.last_vertex] - g.compressed.offsets[p.first_vertex];
    bytes += edges * g.compressed.weight_width / 8;
  }
  return bytes;
}

}  // namespace

void append_range(std::vector<std::pair<vid_t, vid_t>>& ranges, vid_t first, vid_t last) {
  if (!ranges.empty() && ranges.back().second == first) {
    ranges.back().second = last;
  } else {
    ranges.emplace_back(first, last);
  }
}

HostMemoryPlan plan_host_memory(const Graph& graph, const std::vector<Partition>& parts,
                                std::uint64_t budget, const std::vector<bool>& candidates) {
  HostMemoryPlan plan;
  plan.kept.assign(parts.size(), false);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (!candidates.empty() && !candidates[p]) continue;
    const std::uint64_t bytes = list_bytes(graph, parts[p]);
    plan.list_bytes += bytes;
    if (plan.kept_bytes + bytes > budget) continue;
    plan.kept_bytes += bytes;
    ++plan.kept_partitions;
    plan.kept[p] = true;
    append_range(plan.kept_ranges, parts[p].first_vertex, parts[p].last_vertex);
  }
  return plan;
}

}  // namespace ooc
