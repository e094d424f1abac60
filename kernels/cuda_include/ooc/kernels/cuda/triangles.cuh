#pragma once
// Triangle counting's intersections (engine/src/triangles_gpu.cpp; docs/programs.md, "Triangles"):
// for each oriented edge u -> v, each w in both u's and v's oriented lists (sorted by id) closes a
// triangle. A warp takes 32 consecutive edges of a block of lists and searches each target of the
// shorter of the two lists in the longer, a binary search per lane, as GPU counters since Green
// et al. (HPEC 2014) do. The trick: the warp lays its edges' searches end to end and its lanes
// walk them 32 at a time, so a warp over short lists stays as busy as one over a hub's, and a
// warp's work is at most 32 times the longest oriented list (about sqrt(2E), by the orientation).
// A hit adds 1 to w's count; u's and v's are added once per edge, u's once per warp where its
// lanes share u, and the total once per warp.
#include <cstdint>

#include "ooc/core/types.hpp"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/warp.cuh"

namespace ooc::cuda {

// A block of oriented lists in device memory, the vertices [first, last): offsets[u - first] is
// u's offset as the whole graph's offsets give it (last - first + 1 of them), and the block's
// lists start at targets, offsets[0] being their first.
struct OrientedBlock {
  vid_t first, last;
  const eid_t* offsets;
  const vid_t* targets;
  eid_t edges;  // offsets[last - first] - offsets[0]

  __device__ const vid_t* list(vid_t v) const {
    return targets + (offsets[v - first] - offsets[0]);
  }
  __device__ std::uint32_t size(vid_t v) const {
    // A list holds distinct vertex ids, fewer than 2^32.
    return static_cast<std::uint32_t>(offsets[v - first + 1] - offsets[v - first]);
  }
};

inline constexpr unsigned kTriangleWarps = 8;  // per block of threads

// Whether the sorted `list` of `size` ids holds w.
__device__ __forceinline__ bool holds(const vid_t* list, std::uint32_t size, vid_t w) {
  std::uint32_t lo = 0, hi = size;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (list[mid] < w) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < size && list[lo] == w;
}

// One edge's searches as its lane lays them out for the warp: the targets of `shorter` searched
// in `longer`, ending at `end` in the warp's run of searches.
struct EdgeSearches {
  const vid_t* shorter;
  const vid_t* longer;
  std::uint32_t longer_size;
  std::uint64_t end;
};

// The edges u -> v of `sources` whose v is one of `targets`' vertices (sources itself, or another
// block): counts[u], counts[v] and counts[w] gain 1 for each w in both lists, and *total too.
__global__ void __launch_bounds__(kTriangleWarps* kWarp)
    count_triangles(OrientedBlock sources, OrientedBlock targets, unsigned long long* counts,
                    unsigned long long* total) {
  __shared__ EdgeSearches warp_searches[kTriangleWarps][kWarp];
  __shared__ unsigned warp_hits[kTriangleWarps][kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  EdgeSearches* searches = warp_searches[threadIdx.x / kWarp];
  unsigned* hits = warp_hits[threadIdx.x / kWarp];
  const vid_t vertices = sources.last - sources.first;
  const std::uint64_t chunks = (sources.edges + kWarp - 1) / kWarp;
  unsigned long long closed = 0;  // the triangles of this lane's edges
  // Whole warps walk the chunks, so that the shuffles and __syncwarp see every lane.
  for (std::uint64_t chunk = global_warp(); chunk < chunks; chunk += warp_count()) {
    const eid_t e = chunk * kWarp + lane;
    vid_t u = kNoVertex, v = kNoVertex;
    EdgeSearches mine{nullptr, nullptr, 0, 0};
    unsigned long long work = 0;
    if (e < sources.edges) {
      u = sources.first +
          last_at_most(sources.offsets, 0, vertices, sources.offsets[0] + e);  // e is u's
      v = sources.targets[e];
      if (v >= targets.first && v < targets.last) {
        const std::uint32_t su = sources.size(u), sv = targets.size(v);
        const bool u_shorter = su <= sv;
        mine.shorter = u_shorter ? sources.list(u) : targets.list(v);
        mine.longer = u_shorter ? targets.list(v) : sources.list(u);
        mine.longer_size = u_shorter ? sv : su;
        work = u_shorter ? su : sv;
      }
    }
    for (unsigned d = 1; d < kWarp; d *= 2) {  // inclusive scan of the searches
      const unsigned long long before = __shfl_up_sync(kFullMask, work, d);
      if (lane >= d) work += before;
    }
    mine.end = work;
    searches[lane] = mine;
    hits[lane] = 0;
    const unsigned long long all = __shfl_sync(kFullMask, work, kWarp - 1);
    __syncwarp();
    for (unsigned long long first = 0; first < all; first += kWarp) {
      const unsigned long long item = first + lane;
      if (item >= all) continue;
      // The edge whose searches hold the item: the first whose run ends past it.
      unsigned lo = 0, hi = kWarp - 1;
      while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        if (searches[mid].end > item) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      const EdgeSearches& edge = searches[lo];
      const unsigned long long begin = lo == 0 ? 0 : searches[lo - 1].end;
      const vid_t w = edge.shorter[item - begin];
      if (holds(edge.longer, edge.longer_size, w)) {
        atomicAdd(&counts[w], 1ull);
        atomicAdd(&hits[lo], 1u);
      }
    }
    __syncwarp();
    const unsigned here = hits[lane];
    if (here > 0) atomicAdd(&counts[v], static_cast<unsigned long long>(here));
    closed += here;
    // Neighbouring edges mostly share their source: its lowest lane adds them up for it.
    const unsigned same = __match_any_sync(kFullMask, u);
    if (u != kNoVertex && lane == static_cast<unsigned>(__ffs(same)) - 1) {
      unsigned long long for_u = 0;
      for (unsigned rest = same; rest != 0; rest &= rest - 1)
        for_u += hits[__ffs(rest) - 1];
      if (for_u > 0) atomicAdd(&counts[u], for_u);
    }
    __syncwarp();  // the next chunk's searches and hits overwrite these
  }
  closed = warp_reduce(closed, [](unsigned long long a, unsigned long long b) { return a + b; });
  if (lane == 0 && closed > 0) atomicAdd(total, closed);
}

}  // namespace ooc::cuda
