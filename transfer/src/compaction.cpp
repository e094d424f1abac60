#include "ooc/transfer/compaction.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/compress.hpp"

namespace ooc {
namespace {

constexpr eid_t kSplitEdges = eid_t{1} << 16;

// offsets[i] = edges of active[0..i); returns the total (offsets[n]).
eid_t scan_degrees(const Graph& g, std::span<const vid_t> active, eid_t* offsets) {
  const std::size_t n = active.size();
  const eid_t total = tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, n, 4096), eid_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, eid_t sum, bool final_pass) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          if (final_pass) offsets[i] = sum;
          sum += g.degree(active[i]);
        }
        return sum;
      },
      [](eid_t a, eid_t b) { return a + b; });
  offsets[n] = total;
  return total;
}

// The same, and list_offsets[i] = compressed bytes of active[0..i), in one pass over the
// vertices; returns both totals.
std::pair<eid_t, eid_t> scan_lists(const Graph& g, std::span<const vid_t> active, eid_t* offsets,
                                   eid_t* list_offsets) {
  using Sums = std::pair<eid_t, eid_t>;  // edges, bytes
  const CompressedTargets& c = g.compressed;
  const std::size_t n = active.size();
  const Sums total = tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, n, 4096), Sums{0, 0},
      [&](const tbb::blocked_range<std::size_t>& r, Sums sum, bool final_pass) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          if (final_pass) std::tie(offsets[i], list_offsets[i]) = sum;
          const vid_t v = active[i];
          sum.first += g.degree(v);
          sum.second += c.offsets[v + 1] - c.offsets[v];
        }
        return sum;
      },
      [](Sums a, Sums b) {
        return Sums{a.first + b.first, a.second + b.second};
      });
  std::tie(offsets[n], list_offsets[n]) = total;
  return total;
}

// How many of the scanned entries end within `capacity`.
std::size_t fitting(const eid_t* offsets, std::size_t n, std::uint64_t capacity) {
  return static_cast<std::size_t>(std::upper_bound(offsets + 1, offsets + n + 1, capacity) -
                                  (offsets + 1));
}

// Edges [begin, end) of v's list; a compressed list is decoded whole (begin 0, end its degree).
void copy_list(const Graph& g, vid_t v, eid_t to, const CompactionBuffer& out, eid_t begin,
               eid_t end, ListSource source) {
  const eid_t from = g.offsets[v];
  const auto count = static_cast<std::size_t>(end - begin);
  if (count == 0) return;  // an empty graph's arrays may be null
  if (source == ListSource::compressed) {
    decode_list(g.compressed.bytes.data() + g.compressed.offsets[v], end, out.targets + to);
  } else {
    std::memcpy(out.targets + to + begin, g.targets.data() + from + begin, count * sizeof(vid_t));
  }
  if (out.weights != nullptr && source == ListSource::compressed && g.compressed.packs_weights()) {
    unpack_weights(g.compressed, from + begin, count, out.weights + to + begin);
  } else if (out.weights != nullptr) {
    std::memcpy(out.weights + to + begin, g.weights.data() + from + begin,
                count * sizeof(std::uint32_t));
  }
}

}  // namespace

CompactedBatch compact(const Graph& g, std::span<const vid_t> active, const CompactionBuffer& out,
                       ListSource from) {
  const std::span<const vid_t> window = active.first(std::min(active.size(), out.vertex_capacity));
  eid_t total = scan_degrees(g, window, out.offsets);
  std::size_t taken = window.size();
  if (total > out.edge_capacity) {
    taken = fitting(out.offsets, window.size(), out.edge_capacity);
    if (taken == 0) {
      throw OutOfMemory("compaction staging holds " +
                        format_bytes(out.edge_capacity * sizeof(vid_t)) + " of edges, but vertex " +
                        std::to_string(window[0]) + " alone has " +
                        std::to_string(g.degree(window[0])) + " edges");
    }
    total = out.offsets[taken];
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, taken, 256),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        const vid_t v = window[i];
                        out.vertices[i] = v;
                        const eid_t degree = out.offsets[i + 1] - out.offsets[i];
                        if (degree < kSplitEdges || from == ListSource::compressed) {
                          copy_list(g, v, out.offsets[i], out, 0, degree, from);
                          continue;
                        }
                        tbb::parallel_for(tbb::blocked_range<eid_t>(0, degree, kSplitEdges),
                                          [&](const tbb::blocked_range<eid_t>& e) {
                                            copy_list(g, v, out.offsets[i], out, e.begin(), e.end(),
                                                      from);
                                          });
                      }
                    });
  return {taken, total};
}

CompressedBatch compact_compressed(const Graph& g, std::span<const vid_t> active,
                                   const CompressedBuffer& out) {
  const CompressedTargets& c = g.compressed;
  const std::span<const vid_t> window = active.first(std::min(active.size(), out.vertex_capacity));
  const auto [edges, bytes] = scan_lists(g, window, out.offsets, out.list_offsets);
  std::size_t taken = window.size();
  if (edges > out.edge_capacity || bytes > out.list_capacity) {
    taken = std::min(fitting(out.offsets, window.size(), out.edge_capacity),
                     fitting(out.list_offsets, window.size(), out.list_capacity));
    if (taken == 0) {
      throw OutOfMemory("compaction staging holds " + format_bytes(out.list_capacity) +
                        " of compressed lists and " + std::to_string(out.edge_capacity) +
                        " edges, but vertex " + std::to_string(window[0]) + " alone has " +
                        format_bytes(c.offsets[window[0] + 1] - c.offsets[window[0]]) + " and " +
                        std::to_string(g.degree(window[0])) + " edges");
    }
  }
  CompressedBatch batch{taken, out.offsets[taken], out.list_offsets[taken], 0};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, taken, 256),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        const vid_t v = window[i];
                        out.vertices[i] = v;
                        const eid_t length = out.list_offsets[i + 1] - out.list_offsets[i];
                        if (length > 0) {
                          std::memcpy(out.lists + out.list_offsets[i],
                                      c.bytes.data() + c.offsets[v], length);
                        }
                        const eid_t degree = out.offsets[i + 1] - out.offsets[i];
                        if (out.weights != nullptr && degree > 0) {
                          std::memcpy(out.weights + out.offsets[i], g.weights.data() + g.offsets[v],
                                      degree * sizeof(std::uint32_t));
                        }
                      }
                    });
  std::memset(out.lists + batch.list_bytes, 0, codec::kPadding);
  if (out.packed_weights != nullptr) {
    batch.weight_bytes = gather_packed_weights(
        c, std::span<const eid_t>(out.offsets, taken + 1),
        [&](std::size_t i) { return g.offsets[window[i]]; }, out.packed_weights);
  } else if (out.weights != nullptr) {
    batch.weight_bytes = batch.edges * sizeof(std::uint32_t);
  }
  return batch;
}

}  // namespace ooc
