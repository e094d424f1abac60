#include "ooc/engine/edge_cache.hpp"

#include <algorithm>

#include "ooc/core/codec.hpp"

namespace ooc {

std::uint64_t link_bytes(TransferEngine e, const PartitionActivity& a, std::uint32_t bytes_per_edge,
                         std::uint32_t request_bytes) {
  switch (e) {
    case TransferEngine::filter:
      return a.filter_bytes > 0 ? a.filter_bytes : a.edges * bytes_per_edge;
    case TransferEngine::compaction:
      return static_cast<std::uint64_t>(compacted_bytes(a, bytes_per_edge));
    case TransferEngine::zerocopy:
      return a.requests * request_bytes;
    case TransferEngine::unified:
    case TransferEngine::resident:
      break;
  }
  return 0;
}

std::vector<std::uint64_t> cache_sizes(const Graph& g, std::span<const Partition> parts,
                                       bool weighted, bool compressed) {
  std::vector<std::uint64_t> sizes;
  sizes.reserve(parts.size());
  for (const Partition& p : parts) {
    const std::uint64_t targets = compressed
                                      ? g.compressed.range_bytes(p.first_vertex, p.last_vertex)
                                      : p.num_edges() * sizeof(vid_t);
    const std::uint64_t weights =
        !weighted ? 0
        : compressed && g.compressed.packs_weights()
            ? codec::packed_bytes(p.num_edges(), g.compressed.weight_width)
            : p.num_edges() * sizeof(std::uint32_t);
    sizes.push_back(targets + weights);
  }
  return sizes;
}

std::vector<std::uint32_t> choose_cached_partitions(std::span<const Partition> parts,
                                                    std::span<const std::uint64_t> moved,
                                                    std::span<const std::uint8_t> eligible,
                                                    std::span<const std::uint64_t> sizes,
                                                    std::uint64_t capacity,
                                                    std::span<const double> byte_cost) {
  const auto measured = [&](std::uint32_t p) { return p < moved.size() && moved[p] > 0; };
  const auto cost = [&](std::uint32_t p) { return byte_cost.empty() ? 1.0 : byte_cost[p]; };
  // Bytes moved per byte cached; then edges per vertex; each as dear as its bytes are to bring.
  const auto reuse = [&](std::uint32_t p) {
    return static_cast<double>(moved[p]) / static_cast<double>(sizes[p]) * cost(p);
  };
  const auto density = [&](std::uint32_t p) {
    return static_cast<double>(parts[p].num_edges()) /
           static_cast<double>(std::max<vid_t>(parts[p].num_vertices(), 1)) * cost(p);
  };
  std::vector<std::uint32_t> order;
  for (std::uint32_t p = 0; p < parts.size(); ++p) {
    if (parts[p].num_edges() > 0 && (eligible.empty() || eligible[p] != 0)) order.push_back(p);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (measured(a) != measured(b)) return measured(a);
    if (measured(a)) return reuse(a) > reuse(b);
    return density(a) > density(b);
  });
  std::vector<std::uint32_t> chosen;
  std::uint64_t used = 0;
  for (const std::uint32_t p : order) {
    if (used + sizes[p] > capacity) continue;  // a smaller partition further on may still fit
    used += sizes[p];
    chosen.push_back(p);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace ooc
