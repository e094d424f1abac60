#pragma once
// Cache blocking of the pull direction (advance_pull.cuh): each list grouped once by which range
// of target ids its edges fall in, where each group begins, and a gather's view of one group.
#include <cstdint>

#include "ooc/core/types.hpp"
#include "ooc/kernels/cuda/warp.cuh"

namespace ooc::cuda {

// Where each list's group for one range of source ids lies (cache blocking): from lo[v] to
// hi[v], counted from the list's start; a null lo is the list's start, a null hi its end. The
// default is the whole list.
struct ListCut {
  const std::uint32_t* lo = nullptr;
  const std::uint32_t* hi = nullptr;

  // Narrows v's list, starting at `begin` with `degree` edges, to the group.
  __device__ __forceinline__ void narrow(vid_t v, eid_t& begin, eid_t& degree) const {
    const eid_t to = hi == nullptr ? degree : hi[v];
    const eid_t from = lo == nullptr ? 0 : lo[v];
    begin += from;
    degree = to - from;
  }
};

// Groups the lists of vertices [first, last) by range of target ids (`span` ids a range,
// `blocks` <= kMaxBlocks ranges): their targets (and weights, unless null) are written, group
// after group, to out_targets (out_weights) from index offsets[v] - base, and
// cuts[(b - 1) * n + v] is where v's group b begins, for b >= 1. The order inside a group is
// arbitrary. A warp per vertex, counting in shared memory.
template <unsigned kMaxBlocks>
__global__ void __launch_bounds__(256)
    group_lists_kernel(const eid_t* offsets, const vid_t* targets, const std::uint32_t* weights,
                       vid_t first, vid_t last, eid_t base, vid_t* out_targets,
                       std::uint32_t* out_weights, std::uint32_t* cuts, vid_t n, unsigned blocks,
                       vid_t span) {
  __shared__ unsigned counts[256 / kWarp][kMaxBlocks];
  const unsigned lane = threadIdx.x % kWarp;
  unsigned* count = counts[threadIdx.x / kWarp];
  for (std::uint64_t at = first + global_warp(); at < last; at += warp_count()) {
    const auto v = static_cast<vid_t>(at);
    for (unsigned b = lane; b < blocks; b += kWarp)
      count[b] = 0;
    __syncwarp();
    const eid_t begin = offsets[v], end = offsets[v + 1];
    for (eid_t e = begin + lane; e < end; e += kWarp)
      atomicAdd(count + targets[e] / span, 1u);
    __syncwarp();
    if (lane == 0) {  // counts become each group's next free slot
      unsigned running = 0;
      for (unsigned b = 0; b < blocks; ++b) {
        const unsigned c = count[b];
        count[b] = running;
        if (b > 0) cuts[std::uint64_t{b - 1} * n + v] = running;
        running += c;
      }
    }
    __syncwarp();
    for (eid_t e = begin + lane; e < end; e += kWarp) {
      const vid_t t = targets[e];
      const eid_t to = begin - base + atomicAdd(count + t / span, 1u);
      out_targets[to] = t;
      if (weights != nullptr) out_weights[to] = weights[e];
    }
    __syncwarp();
  }
}

}  // namespace ooc::cuda
