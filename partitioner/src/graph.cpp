#include "ooc/partitioner/graph.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "list_sort.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/compress.hpp"
#include "parallel.hpp"
#include "random.hpp"

namespace ooc {
namespace {

// An in-list sorted by source, equal sources (kept duplicates) by weight: the order the parallel
// fill left it in does not matter.
void sort_in_list(vid_t* sources, std::uint32_t* weights, eid_t degree,
                  detail::ListSortScratch& scratch) {
  if (weights == nullptr) {
    std::sort(sources, sources + degree);
    return;
  }
  std::vector<std::uint64_t>& keys = scratch.keys;
  keys.resize(degree);
  for (eid_t i = 0; i < degree; ++i)
    keys[i] = std::uint64_t{sources[i]} << 32 | weights[i];
  std::sort(keys.begin(), keys.end());
  for (eid_t i = 0; i < degree; ++i) {
    sources[i] = static_cast<vid_t>(keys[i] >> 32);
    weights[i] = static_cast<std::uint32_t>(keys[i]);
  }
}

// body(u, e) for every edge e, u its source, in parallel chunks of edges rather than of sources: a
// Kronecker graph's hubs come first and hold much of them.
template <class Body>
void for_each_edge(const Graph& g, Body&& body) {
  constexpr eid_t kChunk = eid_t{1} << 16;
  const eid_t m = g.num_edges();
  tbb::parallel_for(eid_t{0}, (m + kChunk - 1) / kChunk, [&](eid_t c) {
    const eid_t first = c * kChunk, last = std::min(m, first + kChunk);
    auto u = static_cast<vid_t>(std::upper_bound(g.offsets.begin(), g.offsets.end(), first) -
                                g.offsets.begin() - 1);
    for (eid_t e = first; e < last; ++e) {
      while (g.offsets[u + 1] <= e)
        ++u;
      body(u, e);
    }
  });
}

// An in-edge's (source, weight) as one key, in the order the in-lists keep.
std::uint64_t in_key(vid_t source, std::span<const std::uint32_t> weights, eid_t e) {
  return std::uint64_t{source} << 32 | (weights.empty() ? 0u : weights[e]);
}

// Whether the in-edges are in_edges_of(g), without building a second copy: per vertex, the
// in-degree, the (source, weight) order, and a 64-bit sum of mixed (source, weight) keys over its
// in-list against the same sum over the out-edges that reach it. The sum fingerprints the list
// as a multiset, which the order then fixes. `targets` and `weights` are the graph's out-edges'
// (decoded, for a compressed-only graph).
void check_in_edges(const Graph& g, std::span<const vid_t> targets,
                    std::span<const std::uint32_t> weights) {
  const InEdges& in = g.in_edges;
  const vid_t n = g.num_vertices();
  const eid_t m = g.num_edges();
  if (in.offsets.size() != std::size_t{n} + 1 || in.sources.size() != m ||
      in.weights.size() != weights.size()) {
    throw FormatError("the in-edges hold " + std::to_string(in.offsets.size()) + " offsets, " +
                      std::to_string(in.sources.size()) + " sources and " +
                      std::to_string(in.weights.size()) + " weights for " + std::to_string(n) +
                      " vertices and " + std::to_string(m) + " edges");
  }
  if (in.offsets[0] != 0)
    throw FormatError("the in-offsets start at " + std::to_string(in.offsets[0]) + ", not 0");
  Buffer<eid_t> expected = Buffer<eid_t>::allocate(std::size_t{n} + 1);
  Buffer<std::uint64_t> sums = Buffer<std::uint64_t>::allocate(n);
  detail::parallel_fill(expected.data(), std::size_t{n} + 1, eid_t{0});
  detail::parallel_fill(sums.data(), std::size_t{n}, std::uint64_t{0});
  for_each_edge(g, [&](vid_t u, eid_t e) {
    const vid_t v = targets[e];
    std::atomic_ref<eid_t>(expected[v]).fetch_add(1, std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(sums[v]).fetch_add(detail::mix64(in_key(u, weights, e)),
                                                      std::memory_order_relaxed);
  });
  detail::exclusive_scan(expected.data(), std::size_t{n} + 1);
  if (auto v = detail::first_bad(
          n,
          [&](std::size_t i) {
            if (in.offsets[i + 1] != expected[i + 1]) return true;
            std::uint64_t sum = 0;
            for (eid_t e = expected[i]; e < expected[i + 1]; ++e) {
              const std::uint64_t key = in_key(in.sources[e], in.weights.span(), e);
              if (e > expected[i] && key < in_key(in.sources[e - 1], in.weights.span(), e - 1))
                return true;
              sum += detail::mix64(key);
            }
            return sum != sums[i];
          });
      v < n) {
    throw FormatError("the in-edges are not the graph's edges grouped by target: vertex " +
                      std::to_string(v) + "'s in-list differs");
  }
}

}  // namespace

void validate(const Graph& g) {
  if (g.offsets.empty()) throw FormatError("graph has no offset array (it needs V+1 entries)");
  const vid_t n = g.num_vertices();
  const eid_t m = g.num_edges();
  if (g.offsets[0] != 0)
    throw FormatError("offsets[0] is " + std::to_string(g.offsets[0]) + ", not 0");
  // The edges are held raw, or in a compressed-only graph (has_raw_lists) in the compressed copy
  // alone, which check_compressed checks.
  const bool compressed_only = g.targets.empty() && !g.compressed.empty();
  if (!compressed_only && g.offsets[n] != g.targets.size()) {
    throw FormatError("offsets end at " + std::to_string(g.offsets[n]) + " but there are " +
                      std::to_string(g.targets.size()) + " edges");
  }
  if (auto v = detail::first_bad(n, [&](std::size_t i) { return g.offsets[i + 1] < g.offsets[i]; });
      v < n) {
    throw FormatError("offsets decrease at vertex " + std::to_string(v));
  }
  if (auto e =
          detail::first_bad(g.targets.size(), [&](std::size_t i) { return g.targets[i] >= n; });
      e < g.targets.size()) {
    throw FormatError("edge " + std::to_string(e) + " points to vertex " +
                      std::to_string(g.targets[e]) + ", but there are only " + std::to_string(n) +
                      " vertices");
  }
  // A compressed-only graph's packed weights are its only ones (check_compressed checks them).
  const bool weights_packed_only = compressed_only && g.compressed.packs_weights();
  if (weights_packed_only
          ? !g.weights.empty()
          : g.weighted() != !g.weights.empty() || (g.weighted() && g.weights.size() != m)) {
    throw FormatError("weight array has " + std::to_string(g.weights.size()) + " entries for " +
                      std::to_string(m) + " edges of weight type " +
                      std::string(to_string(g.weight_type)));
  }
  if (g.hub_count > n) throw FormatError("hub count exceeds the number of vertices");
  if (!g.original_ids.empty()) {
    const Buffer<vid_t>& ids = g.original_ids;
    if (ids.size() != n) throw FormatError("permutation has the wrong length");
    if (auto v = detail::first_bad(n, [&](std::size_t i) { return ids[i] >= n; }); v < n) {
      throw FormatError("permutation gives vertex " + std::to_string(v) + " the original id " +
                        std::to_string(ids[v]) + ", but there are only " + std::to_string(n) +
                        " vertices");
    }
    // Each original id ends at 1 if one vertex has it and 2 if more do, whatever order the
    // threads ran in, so the vertices named below are the same on every run.
    Buffer<std::uint8_t> taken = Buffer<std::uint8_t>::allocate(n);
    detail::parallel_fill(taken.data(), std::size_t{n}, std::uint8_t{0});
    tbb::parallel_for(std::size_t{0}, std::size_t{n}, [&](std::size_t i) {
      std::atomic_ref<std::uint8_t> t(taken[ids[i]]);
      if (t.exchange(1, std::memory_order_relaxed) != 0) t.store(2, std::memory_order_relaxed);
    });
    if (auto v = detail::first_bad(n, [&](std::size_t i) { return taken[ids[i]] == 2; }); v < n) {
      const auto w = detail::first_bad(n, [&](std::size_t j) { return j > v && ids[j] == ids[v]; });
      throw FormatError("permutation is not one-to-one: vertices " + std::to_string(v) + " and " +
                        std::to_string(w) + " both have the original id " + std::to_string(ids[v]));
    }
  }
  if (!g.compressed.empty()) check_compressed(g);
  if (!g.has_in_edges()) return;
  if (!compressed_only) {
    check_in_edges(g, g.targets.span(), g.weights.span());
    return;
  }
  // Against the lists decoded, which check_compressed has found sound.
  Buffer<vid_t> targets = Buffer<vid_t>::allocate(m);
  decode_lists(g, 0, n, targets.data());
  Buffer<std::uint32_t> unpacked;
  if (weights_packed_only) {
    unpacked = Buffer<std::uint32_t>::allocate(m);
    unpack_weights(g.compressed, 0, m, unpacked.data());
  }
  check_in_edges(g, targets.span(), weights_packed_only ? unpacked.span() : g.weights.span());
}

InEdges in_edges_of(const Graph& g) {
  const vid_t n = g.num_vertices();
  const eid_t m = g.num_edges();
  const bool weighted = !g.weights.empty();
  InEdges in;
  in.offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1);
  in.sources = Buffer<vid_t>::allocate(m);
  if (weighted) in.weights = Buffer<std::uint32_t>::allocate(m);
  detail::parallel_fill(in.offsets.data(), std::size_t{n} + 1, eid_t{0});
  for_each_edge(g, [&](vid_t, eid_t e) {
    std::atomic_ref<eid_t>(in.offsets[g.targets[e]]).fetch_add(1, std::memory_order_relaxed);
  });
  detail::exclusive_scan(in.offsets.data(), std::size_t{n} + 1);
  // Each list filled through a cursor per vertex, in whatever order the threads reach it.
  Buffer<eid_t> cursor = Buffer<eid_t>::copy_of(in.offsets.span().first(n));
  for_each_edge(g, [&](vid_t u, eid_t e) {
    const eid_t at =
        std::atomic_ref<eid_t>(cursor[g.targets[e]]).fetch_add(1, std::memory_order_relaxed);
    in.sources[at] = u;
    if (weighted) in.weights[at] = g.weights[e];
  });
  // Long lists one at a time with every core; the others a block of vertices per task.
  constexpr eid_t kLong = eid_t{1} << 16;
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n, 1024), [&](const tbb::blocked_range<vid_t>& r) {
    detail::ListSortScratch scratch;
    for (vid_t v = r.begin(); v < r.end(); ++v) {
      const eid_t b = in.offsets[v];
      if (in.degree(v) >= kLong) continue;
      sort_in_list(in.sources.data() + b, weighted ? in.weights.data() + b : nullptr, in.degree(v),
                   scratch);
    }
  });
  std::vector<std::uint64_t> keys;
  for (vid_t v = 0; v < n; ++v) {
    const eid_t b = in.offsets[v], d = in.degree(v);
    if (d < kLong) continue;
    vid_t* sources = in.sources.data() + b;
    if (!weighted) {
      tbb::parallel_sort(sources, sources + d);
      continue;
    }
    std::uint32_t* weights = in.weights.data() + b;
    keys.resize(d);
    tbb::parallel_for(eid_t{0}, d,
                      [&](eid_t i) { keys[i] = std::uint64_t{sources[i]} << 32 | weights[i]; });
    tbb::parallel_sort(keys.begin(), keys.end());
    tbb::parallel_for(eid_t{0}, d, [&](eid_t i) {
      sources[i] = static_cast<vid_t>(keys[i] >> 32);
      weights[i] = static_cast<std::uint32_t>(keys[i]);
    });
  }
  return in;
}

Graph in_edge_view(const Graph& g) {
  const auto view = []<class T>(const Buffer<T>& b) {
    return Buffer<T>::view(const_cast<T*>(b.data()), b.size(), nullptr);
  };
  Graph v;
  v.offsets = view(g.in_edges.offsets);
  v.targets = view(g.in_edges.sources);
  v.weights = view(g.in_edges.weights);
  v.weight_type = g.weight_type;
  v.hub_count = g.hub_count;
  return v;
}

Buffer<vid_t> internal_ids(const Graph& g) {
  if (g.original_ids.empty()) return {};
  auto inverse = Buffer<vid_t>::allocate(g.original_ids.size());
  tbb::parallel_for(std::size_t{0}, g.original_ids.size(),
                    [&](std::size_t i) { inverse[g.original_ids[i]] = static_cast<vid_t>(i); });
  return inverse;
}

}  // namespace ooc
