#include "ooc/engine/memory_plan.hpp"

#include <algorithm>

#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/frontier_loop.hpp"

namespace ooc {
namespace {

// The CUDA backend queues vertices of at least 4096 edges for the whole grid (heavy_kernel):
// one entry per 4096 edges at most, a queue per stream (three).
constexpr std::uint64_t kHeavyQueueBytesPerEdge4096 = 3 * kHeavyItemBytes;

}  // namespace

std::uint32_t pull_blocks_for(std::uint64_t vertices, std::uint32_t value_bytes,
                              std::uint32_t asked, std::uint64_t l2_bytes) {
  std::uint64_t blocks = asked;
  if (blocks == 0) {
    const std::uint64_t fits = l2_bytes / 2;
    blocks = fits == 0 ? 1 : (vertices * value_bytes + fits - 1) / fits;
  }
  blocks = std::min<std::uint64_t>({blocks, kMaxPullBlocks, vertices});
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(blocks, 1));
}

namespace {

// The largest partition's edges, counting its in-lists when the run reads them.
eid_t largest_partition(const Graph& g, std::span<const Partition> parts, bool in_lists) {
  eid_t largest = 0;
  for (const Partition& p : parts) {
    largest = std::max(largest, p.num_edges());
    if (in_lists) {
      largest =
          std::max(largest, g.in_edges.offsets[p.last_vertex] - g.in_edges.offsets[p.first_vertex]);
    }
  }
  return largest;
}

// Staging for compressed lists and packed weights: a task's compressed bytes per edge are at
// most its densest partition's.
void plan_compressed(MemoryPlan& plan, const Graph& g, std::span<const Partition> parts) {
  const std::uint64_t n = g.num_vertices();
  double densest = 0;
  for (const Partition& p : parts) {
    if (p.num_edges() == 0) continue;
    const auto bytes = g.compressed.range_bytes(p.first_vertex, p.last_vertex);
    densest = std::max(densest, static_cast<double>(bytes) / static_cast<double>(p.num_edges()));
  }
  plan.compressed_staging =
      (static_cast<std::uint64_t>(densest * static_cast<double>(plan.staging_edges)) + 1 +
       codec::kPadding + 7) /
      8 * 8;
  plan.vertex_bytes += (n + 1) * sizeof(eid_t);  // the compressed offsets
  // The compressed lists, and a compaction batch's byte offsets into them.
  plan.staging_bytes +=
      kStagingBuffers * (plan.compressed_staging + (plan.staging_vertices + 1) * sizeof(eid_t));
  if (g.compressed.packs_weights()) {
    plan.packed_staging = (codec::packed_bytes(plan.staging_edges, g.compressed.weight_width) + 1 +
                           codec::kPadding + 7) /
                          8 * 8;
    plan.staging_bytes += kStagingBuffers * plan.packed_staging;
  }
}

// A GPU rank's room for its changed pairs (MemoryPlan::pair_capacity).
std::uint64_t pair_capacity(std::uint64_t n, std::uint32_t value_bytes, bool accumulative,
                            Exchange exchange, std::uint32_t gpu_ranks,
                            const ExchangeCalibration& calibration, std::uint64_t change_slots) {
  switch (exchange) {
    case Exchange::dense:
      return 0;
    case Exchange::sparse:
      return n;
    case Exchange::automatic:
      break;
  }
  return automatic_pair_capacity(calibration, {.vertices = n,
                                               .ranks = gpu_ranks,
                                               .busiest = 0,
                                               .value_bytes = value_bytes,
                                               .accumulative = accumulative,
                                               .scattered = change_slots});
}

// A GPU rank's exchange arrays: the values (or deltas) as last agreed, an accumulative program's
// changes of them (`change_slots` of them), and for a sparse exchange the rank's changed (vertex,
// value) pairs and every rank's, gathered, and their count.
std::uint64_t exchange_bytes(std::uint64_t n, std::uint32_t value_bytes, bool accumulative,
                             std::uint64_t change_slots, std::uint64_t pairs,
                             std::uint32_t gpu_ranks) {
  std::uint64_t bytes = n * value_bytes + (accumulative ? change_slots * value_bytes : 0);
  if (pairs > 0) bytes += pairs * sizeof(std::uint64_t) * (1 + gpu_ranks) + 8;
  return bytes;
}

void check_budget(const MemoryPlan& plan, std::uint64_t budget) {
  if (plan.needed() <= budget) return;
  throw OutOfMemory(
      "device memory budget too small: vertex data needs " + format_bytes(plan.vertex_bytes) +
      (plan.exchange_bytes > 0 ? ", " : " and ") + "staging " + format_bytes(plan.staging_bytes) +
      (plan.exchange_bytes > 0
           ? " and the exchange with the other ranks " + format_bytes(plan.exchange_bytes)
           : std::string()) +
      ", but the budget allows " + format_bytes(budget) +
      " (raise --budget or lower --partition-bytes)");
}

// Where the edges go within the budget: all on the device (in-memory mode, with cache blocks for
// pulling when they fit), or the edge cache in what the budget leaves.
void place_edges(MemoryPlan& plan, const EngineOptions& o, const Graph& g,
                 std::uint32_t value_bytes, std::uint32_t gpu_ranks, bool in_lists,
                 std::uint64_t l2_bytes, bool tiered) {
  const std::uint64_t budget = plan.budget;
  const std::uint64_t n = g.num_vertices();
  // A GPU rank holds only its own partitions' edges: its in-memory mode is the edge cache below,
  // which holds all of them when they fit. A run that may pull over in-lists keeps those too.
  // In-memory mode copies the raw lists: a compressed-only graph's go to the edge cache instead,
  // compressed, as a rank's do, and so do those host memory holds of a graph beyond it (the others
  // are in its file).
  plan.in_memory = o.in_memory && gpu_ranks == 0 && g.has_raw_lists() && !tiered &&
                   plan.needed() + plan.edge_bytes + plan.in_edge_bytes <= budget;
  if (plan.in_memory && plan.pull && !in_lists && l2_bytes > 0) {
    const std::uint32_t blocks = pull_blocks_for(n, value_bytes, o.pull_blocks, l2_bytes);
    const std::uint64_t bytes = std::uint64_t{blocks - 1} * n * sizeof(std::uint32_t);
    if (plan.needed() + bytes <= budget) {
      plan.pull_blocks = blocks;
      plan.block_bytes = bytes;
    }
  }
  // The unified policy keeps the edges in managed memory: no cache beside it.
  if (o.in_memory && !plan.in_memory && o.cache && o.transfer != TransferPolicy::unified)
    plan.cache_bytes = budget - plan.needed();
}

}  // namespace

MemoryPlan plan_memory(const Graph& g, std::span<const Partition> parts, std::uint32_t value_bytes,
                       bool accumulative, const EngineOptions& o, std::uint64_t budget,
                       std::uint32_t gpu_ranks, std::uint64_t l2_bytes,
                       const ExchangeCalibration& exchange, std::uint64_t change_slots,
                       bool tiered) {
  MemoryPlan plan;
  plan.budget = budget;
  const std::uint64_t n = g.num_vertices();
  const std::uint32_t d1 = g.bytes_per_edge();
  plan.pull = o.direction != Direction::push;
  // A run that may pull on a directed graph reads its in-lists too (engine.cpp, pull_lists).
  const bool in_lists = plan.pull && g.has_in_edges();
  plan.staging_edges = std::max<eid_t>(std::uint64_t{o.filter_merge} * o.partition_bytes / d1,
                                       largest_partition(g, parts, in_lists));
  // No buffer larger than the whole graph: small graphs need no 128 MiB of staging.
  plan.staging_edges = std::clamp<eid_t>(plan.staging_edges, 1, std::max<eid_t>(g.num_edges(), 1));
  plan.staging_vertices = static_cast<std::size_t>(std::max<eid_t>(plan.staging_edges / 4, 1));
  plan.vertex_bytes = (n + 1) * sizeof(eid_t)                     // offsets
                      + n * value_bytes * (accumulative ? 2 : 1)  // values, deltas
                      + 2 * ((n + 63) / 64) * 8                   // current and next frontiers
                      + n * sizeof(vid_t);                        // active vertex lists
  if (plan.pull) plan.vertex_bytes += ((n + 63) / 64) * 8 + (accumulative ? n * value_bytes : 0);
  // The frontier loop's buffers, for a program it may serve (one rank, monotone).
  if (o.frontier_loop_edges > 0 && !accumulative && gpu_ranks == 0)
    plan.vertex_bytes += frontier_loop_bytes(o.frontier_loop_edges, n);
  plan.staging_bytes =
      kStagingBuffers * (plan.staging_edges * d1 + plan.staging_vertices * kCompactionIndexBytes);
  plan.staging_bytes += (g.num_edges() / 4096 + 1) * kHeavyQueueBytesPerEdge4096;
  plan.edge_bytes = g.num_edges() * d1;
  if (in_lists) {
    plan.vertex_bytes += (n + 1) * sizeof(eid_t);  // the in-offsets
    plan.in_edge_bytes = plan.edge_bytes;
  }
  plan.compressed = o.compressed && !g.compressed.empty();
  if (plan.compressed) plan_compressed(plan, g, parts);
  if (gpu_ranks > 0) {
    plan.pair_capacity =
        pair_capacity(n, value_bytes, accumulative, o.exchange, gpu_ranks, exchange, change_slots);
    plan.exchange_bytes =
        exchange_bytes(n, value_bytes, accumulative, change_slots > 0 ? change_slots : n,
                       plan.pair_capacity, gpu_ranks);
  }
  if (budget == 0) return plan;
  check_budget(plan, budget);
  place_edges(plan, o, g, value_bytes, gpu_ranks, in_lists, l2_bytes, tiered);
  return plan;
}

}  // namespace ooc
