// The GPU edge cache's fill (DeviceGraph::fill_cache): the cached partitions laid out, allocated
// and copied up, their packed weights gathered; with a host tier, the partitions in the file read
// first, a run at a time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "device_upload.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/parallel_copy.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/detail/host_tier.hpp"
#include "ooc/engine/edge_cache.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc::detail {
namespace {

inline constexpr const char* kFillingCache = "filling the edge cache";

// Where the cached partitions go: the cache's edges and compressed bytes in all, and a flag per
// partition, 1 when cached.
struct CacheLayout {
  eid_t edges = 0, list_bytes = 0;
  std::vector<std::uint8_t> flags;
};

// Sets each cached partition's position (and its lists', when compressed) in the cache.
CacheLayout lay_out_cache(EdgeCache& cache, const Graph& g, std::span<const Partition> parts) {
  cache.position.assign(parts.size(), EdgeCache::kAbsent);
  cache.list_position.assign(parts.size(), EdgeCache::kAbsent);
  CacheLayout layout;
  layout.flags.assign(parts.size(), 0);
  for (const std::uint32_t p : cache.partitions) {
    cache.position[p] = layout.edges;
    cache.list_position[p] = layout.list_bytes;
    layout.edges += parts[p].num_edges();
    if (cache.compressed)
      layout.list_bytes += g.compressed.range_bytes(parts[p].first_vertex, parts[p].last_vertex);
    layout.flags[p] = 1;
  }
  return layout;
}

// The cache's lists (compressed, padded) or targets, and its raw weights; true when the weights
// are packed instead (fill_cached_edges gathers them).
bool allocate_cache(EdgeCache& cache, const Graph& g, const CacheLayout& layout) {
  if (cache.compressed) {
    cache.lists = DeviceArray<std::uint8_t>(layout.list_bytes + codec::kPadding, "the edge cache");
    OOC_CUDA(cudaMemset(cache.lists.data() + layout.list_bytes, 0, codec::kPadding), kFillingCache);
  } else {
    cache.targets = DeviceArray<vid_t>(layout.edges, "the edge cache");
  }
  const bool packed = cache.compressed && cache.weighted && g.compressed.packs_weights();
  cache.weights =
      DeviceArray<std::uint32_t>(cache.weighted && !packed ? layout.edges : 0, "the edge cache");
  return packed;
}

// The cached partitions' weights packed one after another, so that cache edge i's weight is at
// bit i * width, as the kernels read it (PackedWeights, first_edge - shift): those of
// cache.partitions[from, to), into `host` (the whole cache's), from the byte where partition
// `from` starts, which must be whole.
void gather_cached_weights(const EdgeCache& cache, const Graph& g, std::span<const Partition> parts,
                           std::size_t from, std::size_t to, eid_t edges, std::uint8_t* host) {
  std::vector<eid_t> out_begin;
  const eid_t base = cache.position[cache.partitions[from]];
  for (std::size_t i = from; i < to; ++i)
    out_begin.push_back(cache.position[cache.partitions[i]] - base);
  out_begin.push_back(
      (to < cache.partitions.size() ? cache.position[cache.partitions[to]] : edges) - base);
  gather_packed_weights(
      g.compressed, out_begin,
      [&](std::size_t i) { return parts[cache.partitions[from + i]].first_edge; },
      host + base * g.compressed.weight_width / 8);
}

// Cached partitions [from, to)'s lists (and raw weights), one copy per run of neighbouring
// partitions; through `bounce` (pinned, bounce_bytes) where not empty: a graph beyond host memory's
// lists lie partly in pinned pages (the kept ranges) and partly in pageable ones, and one
// cudaMemcpy may not read both.
void copy_cached_edges(const EdgeCache& cache, const Graph& g, std::span<const Partition> parts,
                       std::size_t from, std::size_t to, bool packed, std::span<std::byte> bounce) {
  const auto copy = [&](auto* dst, const auto* src, std::uint64_t n) {
    const std::uint64_t bytes = n * sizeof(*src);
    if (bounce.empty()) {
      OOC_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), kFillingCache);
      return;
    }
    for (std::uint64_t at = 0; at < bytes; at += bounce.size()) {
      const std::uint64_t piece = std::min<std::uint64_t>(bounce.size(), bytes - at);
      parallel_copy_bytes(bounce.data(), reinterpret_cast<const std::byte*>(src) + at, piece);
      OOC_CUDA(cudaMemcpy(reinterpret_cast<std::byte*>(dst) + at, bounce.data(), piece,
                          cudaMemcpyHostToDevice),
               kFillingCache);
    }
  };
  for (std::size_t i = from; i < to;) {
    const std::uint32_t first = cache.partitions[i];
    std::size_t j = i + 1;
    while (j < to && cache.partitions[j] == cache.partitions[j - 1] + 1)
      ++j;
    const Partition& last = parts[cache.partitions[j - 1]];
    const eid_t begin = parts[first].first_edge;
    const eid_t n = last.last_edge - begin;
    const eid_t at = cache.position[first];
    if (cache.compressed) {
      const vid_t v = parts[first].first_vertex;
      copy(cache.lists.data() + cache.list_position[first],
           g.compressed.bytes.data() + g.compressed.offsets[v],
           g.compressed.range_bytes(v, last.last_vertex));
    } else {
      copy(cache.targets.data() + at, g.targets.data() + begin, n);
    }
    if (cache.weighted && !packed) copy(cache.weights.data() + at, g.weights.data() + begin, n);
    i = j;
  }
}

// A graph beyond host memory's cache fills a run of partitions at a time, their lists read from
// the file where host memory does not hold them and given back once copied: about this many
// bytes of them at once.
constexpr std::uint64_t kCacheFillBytes = std::uint64_t{256} << 20;
// The pinned buffer its copies go through (copy_cached_edges).
constexpr std::uint64_t kBounceBytes = std::uint64_t{32} << 20;

// The cache's partitions (their sizes cache_sizes'), filled in runs: one run for a graph in host
// memory; with a tier, runs of about kCacheFillBytes, each read from the file first where it is
// there, and each starting on a whole byte of the packed weights.
void fill_cached_edges(EdgeCache& cache, const Graph& g, std::span<const Partition> parts,
                       std::span<const std::uint64_t> sizes, bool packed, eid_t edges, int device,
                       const DeviceGraph::CacheSource& source) {
  std::vector<std::uint8_t> weights;
  if (packed)
    weights.resize(codec::packed_bytes(edges, g.compressed.weight_width) + codec::kPadding);
  Buffer<std::byte> bounce;
  if (source.tier != nullptr)
    bounce = Buffer<std::byte>::allocate(kBounceBytes, pinned_memory(device));
  const auto byte_aligned = [&](std::size_t i) {
    return !packed || i == cache.partitions.size() ||
           cache.position[cache.partitions[i]] * g.compressed.weight_width % 8 == 0;
  };
  for (std::size_t i = 0; i < cache.partitions.size();) {
    std::size_t j = i;
    std::uint64_t bytes = 0;
    while (j < cache.partitions.size() &&
           (source.tier == nullptr || bytes < kCacheFillBytes || !byte_aligned(j)))
      bytes += sizes[cache.partitions[j++]];
    const std::span<const std::uint32_t> run(cache.partitions.data() + i, j - i);
    const bool read = source.tier != nullptr &&
                      std::any_of(run.begin(), run.end(),
                                  [&](std::uint32_t p) { return !source.tier->holds(p); });
    if (read) source.tier->fetch(run, cache.compressed, *source.read);
    copy_cached_edges(cache, g, parts, i, j, packed, {bounce.data(), bounce.size()});
    if (packed) gather_cached_weights(cache, g, parts, i, j, edges, weights.data());
    if (read) source.tier->release();
    i = j;
  }
  if (packed) upload(cache.packed, weights.data(), weights.size(), kFillingCache);
}

}  // namespace

std::uint64_t DeviceGraph::fill_cache(std::span<const Partition> parts, std::uint64_t capacity,
                                      bool weighted, bool compressed, const CacheSource& source) {
  const Graph& g = *graph;
  const bool same =
      !cache.partitions.empty() && weighted == cache.weighted && compressed == cache.compressed;
  const std::vector<std::uint64_t> sizes = cache_sizes(g, parts, weighted, compressed);
  std::vector<std::uint32_t> chosen =
      choose_cached_partitions(parts, moved, cacheable, sizes, capacity, source.byte_cost);
  if (same && chosen == cache.partitions) return 0;
  // With a tier, a cache that fits stays unless the new choice holds more: another choice of as
  // many bytes would read its partitions in the file again for a guess at a better reuse.
  std::uint64_t held = 0, chosen_bytes = 0;
  for (const std::uint32_t p : cache.partitions)
    held += sizes[p];
  for (const std::uint32_t p : chosen)
    chosen_bytes += sizes[p];
  if (same && source.tier != nullptr && held <= capacity && chosen_bytes <= held) return 0;
  cache = EdgeCache{};  // the old one's memory first: the budget counts one cache
  cache.partitions = std::move(chosen);
  cache.weighted = weighted;
  cache.compressed = compressed;
  const CacheLayout layout = lay_out_cache(cache, g, parts);
  const bool packed = allocate_cache(cache, g, layout);
  upload(cache.cached, layout.flags.data(), layout.flags.size(), kFillingCache);
  fill_cached_edges(cache, g, parts, sizes, packed, layout.edges, device, source);
  return cache.bytes();
}

}  // namespace ooc::detail
