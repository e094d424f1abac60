#pragma once
// The GPU edge cache's choice of partitions. Out of core, the device memory that the budget
// leaves after vertex data and staging keeps whole partitions resident across iterations and
// runs; the cost model prices a cached partition as free to reach (TransferEngine::resident). What
// to keep is decided by expected reuse, in two steps:
//   * measured: the bytes each partition made its engines move over the link in the engine's
//     earlier runs (what it would have moved had it not been cached), per byte it takes in the
//     cache (its compressed lists, when the run reads them: then more partitions fit);
//   * before any measurement, and for partitions never active: the most edges per vertex first,
//     which on a hub-sorted graph are the hub partitions.
// The cache is filled once per run, never while it runs (docs/cost-model.md says why).
#include <cstdint>
#include <span>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc {

// The bytes engine `e` moves over the link for one partition's activity, as the run's
// statistics count them (resident and unified edges: none).
std::uint64_t link_bytes(TransferEngine e, const PartitionActivity& a, std::uint32_t bytes_per_edge,
                         std::uint32_t request_bytes);

// The bytes each partition takes in the cache: its targets, raw or (`compressed`) its compressed
// lists, so that more partitions fit; and its weights when the program reads them, raw, or
// packed beside compressed lists when the graph packs them.
std::vector<std::uint64_t> cache_sizes(const Graph& graph, std::span<const Partition> partitions,
                                       bool weighted, bool compressed);

// The partitions to cache, ascending: the highest expected reuse first while they fit
// `capacity` bytes, partition p taking sizes[p]. `moved` holds each partition's measured bytes
// (empty: none yet); `eligible`, when not empty, marks the partitions that may be cached (a
// rank's own). `byte_cost`, when not empty, weighs each partition's bytes by what bringing them
// costs against the link's (a graph beyond host memory: the link's bandwidth over the storage's
// for a partition in the file, 1 for one host memory holds): reuse and, unmeasured, density
// are multiplied by it.
std::vector<std::uint32_t> choose_cached_partitions(std::span<const Partition> partitions,
                                                    std::span<const std::uint64_t> moved,
                                                    std::span<const std::uint8_t> eligible,
                                                    std::span<const std::uint64_t> sizes,
                                                    std::uint64_t capacity,
                                                    std::span<const double> byte_cost = {});

}  // namespace ooc
