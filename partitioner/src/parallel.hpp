#pragma once
// Small parallel building blocks of the partitioner (oneTBB).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/core/parallel_copy.hpp"
#include "ooc/core/parallel_scan.hpp"
#include "ooc/core/types.hpp"

namespace ooc::detail {

template <class T>
void parallel_fill(T* data, std::size_t n, T value) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        data[i] = value;
                    });
}

// The smallest index in [0, count) for which bad(i) holds, or count: the same whatever the thread
// timing, so that an error message naming it is too.
template <class Bad>
std::uint64_t first_bad(std::uint64_t count, Bad&& bad) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, count), count,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i) {
          if (bad(i)) return i;
        }
        return found;
      },
      [](std::uint64_t a, std::uint64_t b) { return a < b ? a : b; });
}

// Counting and scattering edges give each worker a range of source vertices: every worker streams
// the whole edge list and writes only the vertices it owns. Streaming reads are cheap next to
// random atomic updates, which serialise on hubs and stop the core from overlapping its cache
// misses; and each list fills in input order, whatever the timing.
inline unsigned owners() {
  return static_cast<unsigned>(tbb::this_task_arena::max_concurrency());
}

template <class Body>
void for_owners(const std::vector<vid_t>& bounds, Body&& body) {
  tbb::parallel_for(
      std::size_t{0}, bounds.size() - 1, [&](std::size_t t) { body(bounds[t], bounds[t + 1]); },
      tbb::static_partitioner());
}

// The owners' ranges of [lo, hi), of equal vertex counts.
inline std::vector<vid_t> owner_bounds(vid_t lo, vid_t hi) {
  std::vector<vid_t> bounds(owners() + 1);
  for (std::size_t t = 0; t < bounds.size(); ++t) {
    bounds[t] = lo + static_cast<vid_t>(std::uint64_t{hi - lo} * t / (bounds.size() - 1));
  }
  return bounds;
}

// The owners' ranges of [lo, lo + count), balanced by edges, not vertices (hubs would leave one
// worker with most writes): vertex lo + i's edges start at starts[i], and all end at `edges`.
inline std::vector<vid_t> owner_bounds_by_edges(const eid_t* starts, vid_t lo, vid_t count,
                                                eid_t edges) {
  const unsigned n = owners();
  std::vector<vid_t> bounds(n + 1, lo + count);
  for (unsigned t = 0; t < n; ++t) {
    const eid_t target = edges * t / n;
    bounds[t] = lo + static_cast<vid_t>(std::lower_bound(starts, starts + count, target) - starts);
  }
  return bounds;
}

}  // namespace ooc::detail
