#pragma once
// Raval et al.'s load-balancing strategies (HiPC'17, §III) as Mappings of the block kernels in
// advance_tiled.cuh: each thread of a block holds one active vertex, as in the tiled mapping, and
// a list of kHeavyDegree edges or more still goes to the heavy queue, whose kernel deals it out
// over the whole grid in 1024-edge chunks (advance.cuh).
//
// Workload decomposition (§III-A): the block concatenates its lists by a prefix sum of their
// degrees and deals the edges out evenly, thread t taking edges t, t + blockDim, ... of the
// concatenation, the list that holds an edge found by a binary search over the prefix sums.
// Raval et al. give each thread a contiguous run of E/T edges instead; dealt round-robin, a
// warp's 32 edges lie next to each other (the lanes' vertices are consecutive ids, so their lists
// are neighbours in the CSR), where runs would have the warp touch 32 lines at once.
//
// Hierarchical processing (§III-C): the worklist is processed in sub-iterations in which a
// thread walks at most MDT edges of its vertex's list; the vertices with edges left make the
// next, shorter sub-worklist; and a sub-worklist shorter than a kernel's block is finished by
// workload decomposition. Here the sub-iterations run inside the block, so the sub-worklist is
// shorter than the block after the first one: a thread walks at most MDT edges of its own list,
// in order, then the block decomposes what is left of all of them. (Sub-iterations over the whole
// grid would need the host to read each sub-worklist's length, a wait that the streams cannot
// afford, or room for a sub-worklist as long as the frontier.) MDT is the graph's mean degree,
// E / V, at least 1: the paper's histogram rule was made for node splitting, where it splits
// only the few longest lists.
#include <cub/block/block_scan.cuh>

#include "ooc/kernels/cuda/advance_tiled.cuh"

namespace ooc::cuda {

// The block's lists (each thread's `mine`, degree 0 for none), their edges dealt out evenly.
// Every thread of the block calls it.
template <class P>
__device__ __forceinline__ void decompose(const P& program, const ProgramState<P>& s,
                                          const Pending<Message<P>>& mine,
                                          unsigned long long& processed) {
  using Scan = cub::BlockScan<eid_t, kTileThreads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ eid_t starts[kTileThreads];
  __shared__ Pending<Message<P>> lists[kTileThreads];
  eid_t start = 0, total = 0;
  Scan(scan).ExclusiveSum(mine.degree, start, total);
  starts[threadIdx.x] = start;
  lists[threadIdx.x] = mine;
  processed += mine.degree;
  __syncthreads();
  typename P::Value* dst = relax_target(s);
  for (eid_t e = threadIdx.x; e < total; e += kTileThreads) {
    // The last thread whose list starts at or before e: the one holding it.
    const std::uint32_t owner = last_at_most(starts, 0, kTileThreads, e);
    const Pending<Message<P>>& list = lists[owner];
    relax_edge(program, dst, s.next, list.message, list.targets, list.weights, e - starts[owner]);
  }
  __syncthreads();  // the block's next call writes the shared arrays again
}

struct Decomposed : ClaimsAtOnce {
  template <class P>
  __device__ __forceinline__ void expand(const P& program, const ProgramState<P>& s,
                                         Pending<Message<P>> mine,
                                         unsigned long long& processed) const {
    queue_if_heavy(s, mine);
    decompose(program, s, mine, processed);
  }
};

struct Hierarchical : ClaimsAtOnce {
  eid_t mdt;  // the most edges a thread walks of its own list

  template <class P>
  __device__ __forceinline__ void expand(const P& program, const ProgramState<P>& s,
                                         Pending<Message<P>> mine,
                                         unsigned long long& processed) const {
    queue_if_heavy(s, mine);
    const eid_t own = mine.degree < mdt ? mine.degree : mdt;
    typename P::Value* dst = relax_target(s);
    for (eid_t j = 0; j < own; ++j)
      relax_edge(program, dst, s.next, mine.message, mine.targets, mine.weights, j);
    processed += own;
    mine.targets += own;
    if (mine.weights != nullptr) mine.weights += own;
    mine.degree -= own;
    decompose(program, s, mine, processed);
  }
};

}  // namespace ooc::cuda
