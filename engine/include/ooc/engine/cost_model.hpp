#pragma once
// The transfer cost model of HyTGraph (ICDE'23) §V-A, formulas (1)-(3) and Algorithm 1 lines
// 2-13: per partition per iteration, the cost of each transfer engine in PCIe round trips, and
// the choice among them. Pure functions, compiled for host and device: the CPU backend calls
// them in a loop, the CUDA cost kernel calls them per partition on the GPU.
// Zero-copy requests are counted with lines_spanned (ooc/kernels/requests.hpp).
#include <cstdint>

#include "ooc/core/hd.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/kernels/requests.hpp"

namespace ooc {

// What the survey of one partition found at the start of an iteration.
struct PartitionActivity {
  std::uint64_t edges = 0;            // E_i: all edges of the partition
  std::uint64_t active_vertices = 0;  // A_i
  std::uint64_t active_edges = 0;     // sum of out-degrees of the active vertices
  std::uint64_t requests = 0;         // sum over active v of the lines their lists touch
  // The bytes a filter task moves for the partition when they are not edges * bytes per edge
  // (its lists compressed); 0: edges * bytes per edge.
  std::uint64_t filter_bytes = 0;
  // The bytes a compaction task moves for the partition when its lists are compressed
  // (compressed_compaction_bytes); 0: active edges * bytes per edge plus kCompactionIndexBytes
  // per active vertex.
  std::uint64_t compacted_bytes = 0;
  // A partition whose lists are in the graph's file, not in host memory (the host tier): the
  // bytes of its lists there, those of its active vertices' lists, and the reads that take those
  // (HostTier::fetch_lists' runs). 0: the partition is in host memory.
  std::uint64_t storage_bytes = 0;
  std::uint64_t storage_active_bytes = 0;
  std::uint64_t storage_reads = 0;
};

// What a filter task moves for a partition of `edges` edges whose targets take `compressed` bytes
// compressed: those, and the weights when the program reads them (bytes_per_edge 8), packed at
// weight_bits each (32: raw).
OOC_HD inline std::uint64_t compressed_filter_bytes(std::uint64_t compressed, std::uint64_t edges,
                                                    std::uint32_t bytes_per_edge,
                                                    std::uint32_t weight_bits) {
  return compressed + (bytes_per_edge > 4 ? (edges * weight_bits + 7) / 8 : 0);
}

OOC_HD inline double filter_bytes(const PartitionActivity& a, std::uint32_t bytes_per_edge) {
  return a.filter_bytes > 0 ? static_cast<double>(a.filter_bytes)
                            : static_cast<double>(a.edges) * bytes_per_edge;
}

struct TransferCosts {
  double filter = 0, compaction = 0, zerocopy = 0;  // in RTT units
};

// The zero-copy cost of a partition that zero-copy cannot read (one in the graph's file).
inline constexpr double kNoZeroCopy = 1e300;

// Bytes per active vertex that a compaction task ships besides its edges (HyTGraph's d2): the
// vertex id (4) and its 64-bit offset into the compacted edges (8).
inline constexpr std::uint32_t kCompactionIndexBytes = 12;
// The same over compressed lists: also the 64-bit offset of the vertex's compressed bytes.
inline constexpr std::uint32_t kCompressedIndexBytes = 20;

// What a compaction task over compressed lists moves for `vertices` active vertices whose lists
// hold `edges` edges in `list_bytes` compressed bytes: those bytes, the weights when the program
// reads them (bytes_per_edge 8) packed at weight_bits each (32: raw), and the index.
OOC_HD inline std::uint64_t compressed_compaction_bytes(std::uint64_t list_bytes,
                                                        std::uint64_t edges, std::uint64_t vertices,
                                                        std::uint32_t bytes_per_edge,
                                                        std::uint32_t weight_bits) {
  return compressed_filter_bytes(list_bytes, edges, bytes_per_edge, weight_bits) +
         vertices * kCompressedIndexBytes;
}

OOC_HD inline double compacted_bytes(const PartitionActivity& a, std::uint32_t bytes_per_edge) {
  return a.compacted_bytes > 0 ? static_cast<double>(a.compacted_bytes)
                               : static_cast<double>(a.active_edges) * bytes_per_edge +
                                     static_cast<double>(a.active_vertices) * kCompactionIndexBytes;
}

// Seconds of the link as round trips of per_round bytes (the compaction gather's and the storage
// reads' terms).
OOC_HD inline double link_round_trips(double seconds, double per_round, const CostConstants& c) {
  return seconds * c.link_bandwidth / per_round * c.round_trip;
}

// What reading a partition of the host tier from the file costs, in seconds: `reads` reads, each
// its latency, and `bytes` at the storage's bandwidth.
OOC_HD inline double storage_seconds(double bytes, double reads, const CostConstants& c) {
  return reads * c.storage_latency + bytes / c.storage_bandwidth;
}

// The most bytes between two active lists of a partition in the graph's file that one read takes
// through rather than reading the lists apart (HostTier::fetch_lists): a read's latency costs
// about that much at a disk's bandwidth.
inline constexpr std::uint64_t kStorageGapBytes = 64 << 10;
// PartitionActivity::storage_reads where the survey does not count them (the GPU's): at most one
// read per active list, and one per kStorageGapBytes of the partition's bytes in the file and one
// more (the reads' runs lie more than kStorageGapBytes apart).
inline constexpr std::uint64_t kUncountedReads = ~std::uint64_t{0};

// Places a surveyed partition in the graph's file (the host tier): the bytes of its lists there,
// those of its active lists (what a compaction task moves, less its index of index_bytes per
// active vertex: kCompactionIndexBytes, or kCompressedIndexBytes over compressed lists), and
// `reads`, the reads of those, or for kUncountedReads their bound.
OOC_HD inline void price_in_file(PartitionActivity& a, std::uint32_t bytes_per_edge,
                                 std::uint32_t index_bytes, std::uint64_t reads) {
  a.storage_bytes = static_cast<std::uint64_t>(filter_bytes(a, bytes_per_edge));
  a.storage_active_bytes = static_cast<std::uint64_t>(compacted_bytes(a, bytes_per_edge)) -
                           a.active_vertices * index_bytes;
  if (reads == kUncountedReads) {
    const std::uint64_t runs = a.storage_bytes / kStorageGapBytes + 1;
    reads = a.active_vertices < runs ? a.active_vertices : runs;
  }
  a.storage_reads = reads;
}

OOC_HD inline double ceil_div(double a, double b) {
  const double q = a / b;
  const auto whole = static_cast<double>(static_cast<std::uint64_t>(q));
  return whole < q ? whole + 1.0 : whole;
}

// d1 = bytes per edge (4, or 8 with weights).
OOC_HD inline TransferCosts transfer_costs(const PartitionActivity& a, std::uint32_t bytes_per_edge,
                                           const CostConstants& c) {
  const double per_round = static_cast<double>(c.request_bytes) * c.max_requests;
  TransferCosts t;
  // (1): the whole partition, in saturated round trips.
  t.filter = ceil_div(filter_bytes(a, bytes_per_edge), per_round) * c.round_trip;
  // (2): the active edges (or their compressed lists) plus one index per active vertex, and the
  // CPU gather when its bandwidth is given (HyTGraph leaves it out in practice).
  const double compacted = compacted_bytes(a, bytes_per_edge);
  t.compaction = ceil_div(compacted, per_round) * c.round_trip;
  if (c.compaction_bandwidth > 0) {
    // The CPU gather, in round trips of per_round bytes at the link's speed.
    t.compaction += link_round_trips(compacted / c.compaction_bandwidth, per_round, c);
  }
  // (3): unsaturated requests, with a round trip shortened by the share of payload carried.
  const double active_share =
      a.edges == 0 ? 0.0 : static_cast<double>(a.active_edges) / static_cast<double>(a.edges);
  const double rtt_zc =
      (c.gamma + (1.0 - c.gamma) * active_share) * c.round_trip * c.zerocopy_round_trip;
  t.zerocopy = ceil_div(static_cast<double>(a.requests), c.max_requests) * rtt_zc;
  // A partition in the file comes first by a read into host memory: the whole in one read for a
  // filter task, the active lists' runs for a compaction task (as HostTier::fetch_lists reads
  // them: the whole, in one read, when they hold all of it). Nothing reads it in place, so no
  // zero-copy.
  if (a.storage_bytes > 0 && c.storage_bandwidth > 0) {
    const bool all = a.storage_active_bytes >= a.storage_bytes;
    t.filter +=
        link_round_trips(storage_seconds(static_cast<double>(a.storage_bytes), 1, c), per_round, c);
    t.compaction += link_round_trips(
        storage_seconds(static_cast<double>(all ? a.storage_bytes : a.storage_active_bytes),
                        all ? 1.0 : static_cast<double>(a.storage_reads), c),
        per_round, c);
    t.zerocopy = kNoZeroCopy;
  }
  return t;
}

// Algorithm 1, lines 4-12.
OOC_HD inline TransferEngine choose_engine(const TransferCosts& t, const CostConstants& c) {
  if (t.compaction < c.alpha * t.filter && t.compaction < c.beta * t.zerocopy) {
    return TransferEngine::compaction;
  }
  return t.zerocopy < t.filter ? TransferEngine::zerocopy : TransferEngine::filter;
}

// The engine for one active partition under a policy. Resident edges cost nothing to reach.
OOC_HD inline TransferEngine engine_for(TransferPolicy policy, bool resident,
                                        const PartitionActivity& a, std::uint32_t bytes_per_edge,
                                        const CostConstants& c) {
  if (resident) return TransferEngine::resident;
  switch (policy) {
    case TransferPolicy::filter:
      return TransferEngine::filter;
    case TransferPolicy::compaction:
      return TransferEngine::compaction;
    case TransferPolicy::zerocopy:
      return TransferEngine::zerocopy;
    case TransferPolicy::unified:
      return TransferEngine::unified;
    case TransferPolicy::hybrid:
      break;
  }
  return choose_engine(transfer_costs(a, bytes_per_edge, c), c);
}

}  // namespace ooc
