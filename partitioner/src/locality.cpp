// The locality of an order (locality.hpp). Value sectors: each tile's targets divided by the
// sector width, sorted, the distinct ones counted. Target lines: level-synchronous BFS whose
// levels are sorted by id, as the engine reads a partition's active lists in id order; a level's
// lines are then a union of intervals that only the previous list can overlap.
#include "ooc/partitioner/locality.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <vector>

#include "parallel.hpp"
#include "random.hpp"

namespace ooc {
namespace {

constexpr unsigned kSourceTries = 64;  // users' ids drawn per traversal until one has out-edges

// Distinct sectors of the values of targets[first, first + count), count <= kTileWidth.
std::uint32_t tile_sectors(const vid_t* targets, eid_t count) {
  std::array<vid_t, kTileWidth> sectors;
  for (eid_t i = 0; i < count; ++i)
    sectors[i] = targets[i] / kSectorVertices;
  std::sort(sectors.begin(), sectors.begin() + static_cast<std::ptrdiff_t>(count));
  return static_cast<std::uint32_t>(
      std::unique(sectors.begin(), sectors.begin() + static_cast<std::ptrdiff_t>(count)) -
      sectors.begin());
}

void count_value_sectors(const Graph& g, Locality& out) {
  using Sum = std::pair<std::uint64_t, std::uint64_t>;  // (tiles, sectors)
  const Sum sum = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, g.num_vertices()), Sum{0, 0},
      [&](const tbb::blocked_range<vid_t>& r, Sum s) {
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          for (eid_t e = g.offsets[v]; e < g.offsets[v + 1]; e += kTileWidth) {
            ++s.first;
            s.second += tile_sectors(g.targets.data() + e,
                                     std::min<eid_t>(kTileWidth, g.offsets[v + 1] - e));
          }
        }
        return s;
      },
      [](Sum a, Sum b) {
        return Sum{a.first + b.first, a.second + b.second};
      });
  out.tiles = sum.first;
  out.value_sectors = sum.second;
}

// The lines a level's lists touch, list by list and once each; `level` is sorted.
void count_level_lines(const Graph& g, const std::vector<vid_t>& level, Locality& out) {
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::uint64_t previous_last = kNone;
  for (const vid_t v : level) {
    if (g.degree(v) == 0) continue;
    std::uint64_t first = g.offsets[v] * sizeof(vid_t) / kLineBytes;
    const std::uint64_t last = (g.offsets[v + 1] * sizeof(vid_t) - 1) / kLineBytes;
    ++out.lists_read;
    out.list_lines += last - first + 1;
    if (previous_last != kNone && first <= previous_last) first = previous_last + 1;
    if (first <= last) out.shared_lines += last - first + 1;
    previous_last = last;
  }
}

// The next BFS level: the unvisited targets of `level`'s lists, sorted.
std::vector<vid_t> next_level(const Graph& g, const std::vector<vid_t>& level,
                              Buffer<std::uint8_t>& visited) {
  tbb::enumerable_thread_specific<std::vector<vid_t>> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, level.size(), 64),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::vector<vid_t>& mine = found.local();
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        for (const vid_t w : g.neighbors(level[i])) {
                          std::atomic_ref<std::uint8_t> seen(visited[w]);
                          if (seen.load(std::memory_order_relaxed) == 0 &&
                              seen.exchange(1, std::memory_order_relaxed) == 0)
                            mine.push_back(w);
                        }
                      }
                    });
  std::vector<vid_t> next;
  for (const std::vector<vid_t>& part : found)
    next.insert(next.end(), part.begin(), part.end());
  tbb::parallel_sort(next.begin(), next.end());
  return next;
}

// Traversal i's source: the first of the users' ids drawn for it that has out-edges, as an
// internal id; kNoVertex when none has.
vid_t bfs_source(const Graph& g, const Buffer<vid_t>& internal, std::uint64_t seed, unsigned i) {
  const vid_t n = g.num_vertices();
  for (unsigned t = 0; t < kSourceTries; ++t) {
    const auto user =
        static_cast<vid_t>(detail::hash2(seed, std::uint64_t{i} * kSourceTries + t) % n);
    const vid_t v = internal.empty() ? user : internal[user];
    if (g.degree(v) > 0) return v;
  }
  return kNoVertex;
}

}  // namespace

Locality measure_locality(const Graph& g, const LocalityOptions& options) {
  Locality out;
  const vid_t n = g.num_vertices();
  if (n == 0) return out;
  count_value_sectors(g, out);
  if (options.traversals == 0 || g.num_edges() == 0) return out;
  const Buffer<vid_t> internal = internal_ids(g);
  auto visited = Buffer<std::uint8_t>::allocate(n);
  for (unsigned i = 0; i < options.traversals; ++i) {
    const vid_t source = bfs_source(g, internal, options.seed, i);
    if (source == kNoVertex) continue;
    ++out.traversals;
    detail::parallel_fill(visited.data(), visited.size(), std::uint8_t{0});
    visited[source] = 1;
    for (std::vector<vid_t> level{source}; !level.empty(); level = next_level(g, level, visited))
      count_level_lines(g, level, out);
  }
  return out;
}

}  // namespace ooc
