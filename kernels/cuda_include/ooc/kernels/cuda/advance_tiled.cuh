#pragma once
// The advance operator's tiled mapping: SAGE's tiled partitioning (SIGMOD'21 §5.1, Algorithm 2)
// with cooperative groups. Each thread of a block takes one active vertex. While some thread of
// the block holds at least blockDim edges, the whole block elects it and walks its list; then
// the block splits into warps and each warp does the same with lists of at least 32 edges; what
// is left — lists shorter than a warp — is gathered the way SAGE defers to (Merrill et al.'s
// scan-based gather): the warp concatenates its lanes' short lists with a prefix sum and walks
// them 32 edges at a time, lane i taking the i-th edge. The lanes hold consecutive vertex ids,
// whose lists lie next to each other in the CSR (and in a compacted batch), so these reads are
// contiguous where the warp mapping issued a request per short list.
//
// The trick that makes it pay: no thread sits idle behind a long list of its own, and no warp
// walks a 3-edge list with 29 lanes idle. Block and warp tiles keep EMOGI's aligned start.
//
// Resident tile stealing (SAGE §5.2): lists of at least kHeavyDegree edges are not walked by
// the block that found them. They are flattened into device memory as 1024-edge tiles (the
// heavy queue, advance.cuh), and heavy_kernel lets every warp of the grid, on any SM, take
// them. SAGE also keeps the tiles from one visit of a vertex to the next; here they are made
// anew each iteration, as the frontier differs.
//
// The block kernels (a thread per active vertex, the block's lists spread by a Mapping: Tiled
// here, Raval et al.'s in advance_raval.cuh) must run with kTileThreads threads per block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "ooc/kernels/cuda/advance.cuh"

namespace ooc::cuda {

namespace cg = cooperative_groups;

inline constexpr unsigned kTileThreads = 256;
inline constexpr unsigned kWordsPerTileBlock = kTileThreads / 64;

// One thread's active vertex: what is left of its list and the message it sends (taken when
// the block claims it, or, for a short list under Ordered, when its warp reaches it).
template <class Msg>
struct Pending {
  const vid_t* targets;
  const std::uint32_t* weights;
  eid_t degree;  // 0: nothing (left) to do
  Msg message;
  vid_t vertex;
};

template <class P>
__device__ __forceinline__ Pending<Message<P>> claim(const P& program, const ProgramState<P>& s,
                                                     vid_t v, const vid_t* targets,
                                                     const std::uint32_t* weights, eid_t degree) {
  Pending<Message<P>> p{targets, weights, degree, {}, v};
  if (!take_message(program, s, v, degree, p.message)) p.degree = 0;
  return p;
}

template <class T>
__device__ __forceinline__ T* shfl_pointer(const cg::thread_block_tile<kWarp>& warp, T* p,
                                           unsigned from) {
  return reinterpret_cast<T*>(warp.shfl(reinterpret_cast<unsigned long long>(p), from));
}

// Algorithm 2 lines 9-26 with the whole block as the tile.
template <class P>
__device__ __forceinline__ void block_tiles(const P& program, const ProgramState<P>& s,
                                            Pending<Message<P>>& mine,
                                            unsigned long long& processed) {
  __shared__ int leader;
  __shared__ Pending<Message<P>> led;
  const unsigned rank = threadIdx.x;
  if (rank == 0) leader = -1;  // the barrier in __syncthreads_or orders it before any vote
  while (__syncthreads_or(mine.degree >= kTileThreads)) {
    if (mine.degree >= kTileThreads) atomicMax(&leader, static_cast<int>(rank));
    __syncthreads();
    if (static_cast<int>(rank) == leader) {
      led = mine;
      processed += mine.degree;
      mine.degree = 0;
    }
    __syncthreads();
    relax_range(program, relax_target(s), s.next, led.message, led.targets, led.weights, 0,
                led.degree, rank, kTileThreads);
    if (rank == 0) leader = -1;  // read by all only between the two barriers above
  }
}

// The same with a warp as the tile.
template <class P>
__device__ __forceinline__ void warp_tiles(const P& program, const ProgramState<P>& s,
                                           const cg::thread_block_tile<kWarp>& warp,
                                           Pending<Message<P>>& mine,
                                           unsigned long long& processed) {
  for (unsigned want = warp.ballot(mine.degree >= kWarp); want != 0;
       want = warp.ballot(mine.degree >= kWarp)) {
    const auto leader = static_cast<unsigned>(__ffs(static_cast<int>(want)) - 1);
    const vid_t* targets = shfl_pointer(warp, mine.targets, leader);
    const std::uint32_t* weights = shfl_pointer(warp, mine.weights, leader);
    const eid_t degree = warp.shfl(mine.degree, leader);
    const Message<P> message = shfl_message(mine.message, static_cast<int>(leader));
    if (warp.thread_rank() == leader) {
      processed += mine.degree;
      mine.degree = 0;
    }
    relax_range(program, relax_target(s), s.next, message, targets, weights, 0, degree,
                warp.thread_rank());
  }
}

// Lists shorter than a warp, concatenated by a prefix sum and walked 32 edges at a time.
template <class P>
__device__ __forceinline__ void gather_fragments(const P& program, const ProgramState<P>& s,
                                                 const cg::thread_block_tile<kWarp>& warp,
                                                 const Pending<Message<P>>& mine,
                                                 unsigned long long& processed) {
  const auto count = static_cast<unsigned>(mine.degree);  // < kWarp
  processed += count;
  const unsigned start = cg::exclusive_scan(warp, count);
  const unsigned total = warp.shfl(start + count, kWarp - 1);
  for (unsigned base = 0; base < total; base += kWarp) {
    const unsigned at = base + warp.thread_rank();
    unsigned owner = 0;  // the last lane whose part starts at or before `at`
    for (unsigned step = kWarp / 2; step > 0; step /= 2) {
      if (warp.shfl(start, owner + step) <= at) owner += step;
    }
    const vid_t* targets = shfl_pointer(warp, mine.targets, owner);
    const std::uint32_t* weights = shfl_pointer(warp, mine.weights, owner);
    const Message<P> message = shfl_message(mine.message, static_cast<int>(owner));
    const unsigned offset = at - warp.shfl(start, owner);
    if (at < total) relax_edge(program, relax_target(s), s.next, message, targets, weights, offset);
  }
}

// A list of kHeavyDegree edges or more goes to the heavy queue, and leaves `mine` empty.
template <class P>
__device__ __forceinline__ void queue_if_heavy(const ProgramState<P>& s,
                                               Pending<Message<P>>& mine) {
  if (mine.degree >= kHeavyDegree) {
    queue_heavy(s, mine.targets, mine.weights, mine.degree, mine.message);
    mine.degree = 0;
  }
}

// Every thread of the block calls it, with its vertex or with degree 0.
template <class P>
__device__ __forceinline__ void expand_tiled(const P& program, const ProgramState<P>& s,
                                             Pending<Message<P>> mine,
                                             unsigned long long& processed) {
  queue_if_heavy(s, mine);
  block_tiles(program, s, mine, processed);
  const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
  warp_tiles(program, s, warp, mine, processed);
  gather_fragments(program, s, warp, mine, processed);
}

__device__ __forceinline__ void count_edges_tiled(unsigned long long* counter,
                                                  unsigned long long processed) {
  const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
  const unsigned long long sum = cg::reduce(warp, processed, cg::plus<unsigned long long>());
  if (warp.thread_rank() == 0 && sum != 0) atomicAdd(counter, sum);
}

// Mappings whose block takes every vertex's message at once, when it claims them.
struct ClaimsAtOnce {
  template <class P>
  __device__ __forceinline__ Pending<Message<P>> claim(const P& program, const ProgramState<P>& s,
                                                       vid_t v, const vid_t* targets,
                                                       const std::uint32_t* weights,
                                                       eid_t degree) const {
    return cuda::claim(program, s, v, targets, weights, degree);
  }
};

// The tiled mapping as the block kernels' Mapping (advance_raval.cuh has Raval et al.'s two).
struct Tiled : ClaimsAtOnce {
  template <class P>
  __device__ __forceinline__ void expand(const P& program, const ProgramState<P>& s,
                                         Pending<Message<P>> mine,
                                         unsigned long long& processed) const {
    expand_tiled(program, s, mine, processed);
  }
};

// Short lists walked one after another in vertex order, each message taken only when the warp
// reaches its list (every lane calls it; `mine` is a list shorter than a warp, not yet claimed,
// or degree 0).
template <class P>
__device__ __forceinline__ void walk_in_order(const P& program, const ProgramState<P>& s,
                                              const cg::thread_block_tile<kWarp>& warp,
                                              const Pending<Message<P>>& mine,
                                              unsigned long long& processed) {
  typename P::Value* dst = relax_target(s);
  for (unsigned left = warp.ballot(mine.degree != 0); left != 0; left &= left - 1) {
    const auto owner = static_cast<unsigned>(__ffs(static_cast<int>(left)) - 1);
    Message<P> message{};
    int go = 0;
    if (warp.thread_rank() == owner &&
        take_message(program, s, mine.vertex, mine.degree, message)) {
      go = 1;
      processed += mine.degree;
    }
    if (warp.shfl(go, owner) == 0) continue;
    relax_range(program, dst, s.next, shfl_message(message, static_cast<int>(owner)),
                shfl_pointer(warp, mine.targets, owner), shfl_pointer(warp, mine.weights, owner), 0,
                warp.shfl(mine.degree, owner), warp.thread_rank());
  }
}

// The tiled mapping with the warp mapping's in-order progress for accumulative programs' short
// lists. Lists of a warp's length or more are claimed and tiled as in Tiled. A shorter one is
// left unclaimed until its warp reaches it: the warp walks its lanes' short lists one after
// another, lowest vertex id first, and takes each delta only then, so that a delta pushed earlier
// in the same kernel to a later lane's vertex is sent on at once (Gauss-Seidel-like), as the warp
// mapping does over a word. It gives up the coalesced gather of short lists for that, and pays
// only where deltas flow: on a grid it cut PageRank's iterations and time, while walking monotone
// programs' lists in order made SSSP and CC slower, in fewer iterations (docs/performance-log.md,
// "Figures moved from code comments").
// Monotone programs' short lists are therefore gathered as in Tiled.
struct Ordered {
  template <class P>
  __device__ __forceinline__ Pending<Message<P>> claim(const P& program, const ProgramState<P>& s,
                                                       vid_t v, const vid_t* targets,
                                                       const std::uint32_t* weights,
                                                       eid_t degree) const {
    if (P::kind == ProgramKind::accumulative && degree != 0 && degree < kWarp)
      return {targets, weights, degree, {}, v};
    return cuda::claim(program, s, v, targets, weights, degree);
  }
  template <class P>
  __device__ __forceinline__ void expand(const P& program, const ProgramState<P>& s,
                                         Pending<Message<P>> mine,
                                         unsigned long long& processed) const {
    if constexpr (P::kind == ProgramKind::accumulative) {
      queue_if_heavy(s, mine);
      block_tiles(program, s, mine, processed);
      const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
      warp_tiles(program, s, warp, mine, processed);
      walk_in_order(program, s, warp, mine, processed);
    } else {
      expand_tiled(program, s, mine, processed);
    }
  }
};

// A block per kWordsPerTileBlock words of the task's ranges, a thread per vertex of those words;
// `source` says which run, `mapping` spreads the block's lists over its threads.
template <class P, class Source, class Mapping>
__global__ void __launch_bounds__(kTileThreads)
    advance_ranges_block_kernel(P program, ProgramState<P> s, RangeSet ranges, Source source,
                                OffsetEdges edges, Mapping mapping) {
  __shared__ std::uint64_t words[kWordsPerTileBlock], bits[kWordsPerTileBlock];
  __shared__ eid_t shifts[kWordsPerTileBlock];
  const unsigned slot = threadIdx.x / 64, bit = threadIdx.x % 64;
  const std::uint64_t items = ranges.words();
  unsigned long long processed = 0;
  // The loop bound is the same for the whole block: every mapping synchronises it.
  for (std::uint64_t first = std::uint64_t{blockIdx.x} * kWordsPerTileBlock; first < items;
       first += std::uint64_t{gridDim.x} * kWordsPerTileBlock) {
    if (bit == 0) {
      std::uint64_t word = 0, mask = 0, taken = 0;
      eid_t shift = 0;
      if (first + slot < items) {
        ranges.item(first + slot, word, mask, shift);
        taken = source.take(word, mask);
      }
      words[slot] = word;
      bits[slot] = taken;
      shifts[slot] = shift;
    }
    __syncthreads();
    Pending<Message<P>> mine{nullptr, nullptr, 0, {}, 0};
    if ((bits[slot] >> bit) & 1u) {
      const auto v = static_cast<vid_t>((words[slot] << 6) + bit);
      const eid_t begin = edges.offsets[v] - edges.shift - shifts[slot];
      mine = mapping.claim(program, s, v, edges.targets + begin,
                           edges.weights == nullptr ? nullptr : edges.weights + begin,
                           edges.offsets[v + 1] - edges.offsets[v]);
    }
    // words/bits/shifts are written again only after the mapping's first barrier, which every
    // thread reaches after reading them.
    mapping.expand(program, s, mine, processed);
  }
  count_edges_tiled(s.edges_processed, processed);
}

// A thread per vertex of a compacted batch.
template <class P, class Mapping>
__global__ void __launch_bounds__(kTileThreads)
    advance_compacted_block_kernel(P program, ProgramState<P> s, CompactedEdges batch,
                                   std::uint64_t count, Mapping mapping) {
  unsigned long long processed = 0;
  for (std::uint64_t first = std::uint64_t{blockIdx.x} * kTileThreads; first < count;
       first += std::uint64_t{gridDim.x} * kTileThreads) {
    const std::uint64_t i = first + threadIdx.x;
    Pending<Message<P>> mine{nullptr, nullptr, 0, {}, 0};
    if (i < count) {
      const eid_t begin = batch.begin[i];
      mine = mapping.claim(program, s, batch.vertices[i], batch.targets + begin,
                           batch.weights == nullptr ? nullptr : batch.weights + begin,
                           batch.begin[i + 1] - begin);
    }
    mapping.expand(program, s, mine, processed);
  }
  count_edges_tiled(s.edges_processed, processed);
}

}  // namespace ooc::cuda
