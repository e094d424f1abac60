#pragma once
// The frontier loop's queues (frontier_loop.cuh): their counters and state, the record of a
// level, and how a lowered vertex joins a queue or the far pile.
//
// Queues. Level L processes queue L % 3 and fills (L + 1) % 3, while one thread records level
// L - 1 from queue (L + 2) % 3 and empties it: one barrier a level. A vertex joins the next queue
// when its bit in the next level's bitmap goes from 0 to 1, so it is queued once per level
// however many edges lower it; the bitmaps alternate (level L's queue has its bits in bitmap
// L % 2, the engine's frontier bitmap being bitmap 0), and processing a vertex clears its bit in
// the current one, which no thread sets during the level. A vertex lowered while or after it is
// processed is queued for the next level, whose barrier makes the lowered value visible, so no
// fence is needed per edge. With a delta the far pile (near-far, Davidson et al., IPDPS 2014)
// holds the vertices at or above the threshold, in `far_bits` and two far queues: when the near
// queue is empty, the threshold becomes the least far value plus delta and the far vertices below
// it move near. A queue that fills sets its slot's overflow (the vertex's bit set all the same)
// and the loop hands back after that level. On exit every queued and far vertex's bit joins the
// frontier bitmap, where the host loop finds them.
//
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/loop_lists.cuh"

namespace ooc::cuda {

namespace cg = cooperative_groups;

// A queue's count and its vertices' edges share one 64-bit counter: the count in the low bits.
inline constexpr unsigned kLoopCountBits = 24;
// The longest list one warp relaxes in a level; a longer one is a heavy item of the next level.
inline constexpr eid_t kLoopHeavyEdges = kHeavyChunk;

// One queue's counters: its vertices and their edges as it fills (one counter), whether a queue
// filled while it did (the far pile's too), and what processing it read. A level reads only the
// counters of the queue it processes, which no thread writes while it runs: every branch is taken
// alike.
struct LoopSlot {
  unsigned long long queued;            // vertices (low kLoopCountBits) and their edges (the rest)
  unsigned long long overflow;          // a queue was full
  unsigned long long zerocopy, cached;  // bytes read by zero-copy and from the edge cache
  unsigned long long hopped;            // edges relaxed by hops processing it
  unsigned long long heavy;             // heavy items for its level: count (high), chunks (low)
  unsigned long long deferred;          // edges its level handed on as heavy items
  unsigned long long drained;           // edges of heavy items its level relaxed
  __host__ __device__ unsigned long long vertices() const {
    return queued & ((1ull << kLoopCountBits) - 1);
  }
  __host__ __device__ unsigned long long edges() const { return queued >> kLoopCountBits; }
  // Its level's processed edges: its queue's lists, less those it handed on, and the heavy chunks
  // and hops it relaxed.
  __host__ __device__ unsigned long long processed() const {
    return edges() - deferred + drained + hopped;
  }
};

// A list handed on to the next level (the counter `heavy` of that level's slot gives it a place
// and its first chunk in the same order, so that the items' first chunks rise with their places).
struct LoopHeavy {
  vid_t v;
  ListPlace place;
  unsigned long long first_chunk;
};

// One level as the host reads it back.
struct LoopLevel {
  LoopSlot slot;
  unsigned long long start_ns;  // %globaltimer when the level began
};

struct LoopState {
  std::uint64_t* bits[2];   // the levels' bitmaps: the frontier's, and one more
  std::uint64_t* far_bits;  // the far pile's members (piles only)
  vid_t* near;              // 3 queues of near_capacity
  vid_t* far;               // 2 queues of far_capacity (piles only)
  std::uint64_t near_capacity, far_capacity;
  LoopSlot* slots;                // 3, zeroed
  LoopHeavy* heavy;               // 3 arrays of heavy_capacity, a slot's each
  std::uint64_t heavy_capacity;   // more than a level's edges over kLoopHeavyEdges
  unsigned long long* far_count;  // 2, zeroed
  unsigned long long* least;      // ~0: the split's least far value (order_key)
  LoopLevel* levels;              // max_levels + 1
  unsigned long long* ran;        // [0] levels run, [1] %globaltimer at the end
  vid_t n;
  std::uint64_t max_edges;  // FrontierLoop::edges
  std::uint32_t max_levels;
  std::uint32_t hops;  // lists relaxed in a row past a level's own (kLoopMaxHops at most)
  double delta;        // 0: one pile
};

// Hops at most, and the longest list a hop relaxes.
inline constexpr std::uint32_t kLoopMaxHops = 4;
inline constexpr eid_t kHopEdges = 8;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned long long read(const unsigned long long* p) {
  return *static_cast<const volatile unsigned long long*>(p);
}

// What every thread branches on at the top of a level: the current queue's counter and overflow,
// and the current far queue's count (null: no piles). After a barrier every thread of a block
// reading the same line would queue 512 requests at one L2 slice, each block's: so one thread of
// the block reads them and hands them to the others through shared memory. Every thread calls it,
// with a grid-wide barrier between two calls.
struct LoopSeen {
  unsigned long long queued, overflow, far, heavy;
};

__device__ __forceinline__ LoopSeen loop_seen(const LoopSlot& current,
                                              const unsigned long long* far_count) {
  __shared__ LoopSeen seen;
  if (threadIdx.x == 0)
    seen = {read(&current.queued), read(&current.overflow),
            far_count == nullptr ? 0 : read(far_count), read(&current.heavy)};
  __syncthreads();
  return seen;
}

// The split's least far value, read the same way (every thread calls it, a grid-wide barrier
// between two calls).
__device__ __forceinline__ unsigned long long loop_least_seen(const unsigned long long* least) {
  __shared__ unsigned long long seen;
  if (threadIdx.x == 0) seen = read(least);
  __syncthreads();
  return seen;
}

__device__ __forceinline__ void bit_clear(std::uint64_t* words, vid_t v) {
  atomicAnd(reinterpret_cast<unsigned long long*>(words + (v >> 6)), ~(1ull << (v & 63)));
}

// Appends t to a near queue, the calling lanes together: one atomic adds their count and their
// lists' edges.
__device__ __forceinline__ void enqueue_near(vid_t* queue, LoopSlot* slot, std::uint64_t capacity,
                                             vid_t t, unsigned long long degree) {
  const cg::coalesced_group g = cg::coalesced_threads();
  const unsigned long long edges = cg::reduce(g, degree, cg::plus<unsigned long long>());
  unsigned long long base = 0;
  if (g.thread_rank() == 0)
    base = atomicAdd(&slot->queued, (edges << kLoopCountBits) | g.size()) &
           ((1ull << kLoopCountBits) - 1);
  const unsigned long long at = g.shfl(base, 0) + g.thread_rank();
  if (at < capacity) {
    queue[at] = t;
  } else {
    atomicExch(&slot->overflow, 1ull);
  }
}

// The same for a far queue, which counts vertices only.
__device__ __forceinline__ void enqueue_far(vid_t* queue, unsigned long long* count, LoopSlot* slot,
                                            std::uint64_t capacity, vid_t t) {
  const cg::coalesced_group g = cg::coalesced_threads();
  unsigned long long base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
  const unsigned long long at = g.shfl(base, 0) + g.thread_rank();
  if (at < capacity) {
    queue[at] = t;
  } else {
    atomicExch(&slot->overflow, 1ull);
  }
}

// The marker the loop's relaxes go through (advance.cuh's mark): a lowered target joins the
// next near queue, or with piles the far pile when its value is at or above the threshold.
template <class Value>
struct LoopMark {
  const Value* values;
  const eid_t* offsets;
  std::uint64_t* near_bits;  // the next queue's bitmap
  std::uint64_t* far_bits;
  vid_t* queue;  // the next near queue
  LoopSlot* slot;
  vid_t* far;  // the current far queue
  unsigned long long* far_count;
  std::uint64_t near_capacity, far_capacity;
  bool piles;
  double threshold;

  // Whether a vertex of that value goes far; goes_far(v) reads v's.
  __device__ bool far_value(Value value) const {
    return piles && static_cast<double>(value) >= threshold;
  }
  __device__ bool goes_far(vid_t v) const { return piles && far_value(atomic_load(values + v)); }
  __device__ void to_far(vid_t v) const {
    if (bit_set(far_bits, v)) enqueue_far(far, far_count, slot, far_capacity, v);
  }
  // v, whose bit this thread set, into the next near queue with its `edges`.
  __device__ void to_near(vid_t v, eid_t edges) const {
    enqueue_near(queue, slot, near_capacity, v, edges);
  }
  __device__ void to_near(vid_t v) const { to_near(v, offsets[v + 1] - offsets[v]); }
};

// A lowered target t whose list lies at `place` into the next near queue or the far pile.
template <class Value>
__device__ __forceinline__ void mark(const LoopMark<Value>& m, vid_t t, ListPlace place) {
  if (m.goes_far(t)) {
    m.to_far(t);
  } else if (bit_set(m.near_bits, t)) {
    m.to_near(t, place.edges);
  }
}

}  // namespace ooc::cuda
