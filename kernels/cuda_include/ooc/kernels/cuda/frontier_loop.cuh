#pragma once
// The frontier loop on the GPU (ooc/engine/frontier_loop.hpp says when the engine runs it): one
// persistent kernel, cooperatively launched so that every block is resident, runs level after
// level with the frontier as queues in GPU memory and a grid-wide barrier between levels, as
// Groute's fused kernel does (PPoPP 2017); no host round trip per level. A warp takes one queued
// vertex at a time and relaxes its list where it is (LoopLists below): in GPU memory, or in pinned
// host memory by zero-copy in whole aligned lines (EMOGI), compressed lists decoded from the
// warp's line window. It does not read the edge cache: a run with one keeps the host loop.
//
// Queues. A vertex is queued when its bit in `near_bits` (the engine's frontier bitmap) goes
// from 0 to 1, so each vertex is in the next level's queue at most once; processing clears the
// bit before the value is read, so a vertex lowered again after that is queued again. Three near
// queues rotate: level L processes queue L % 3 and fills (L + 1) % 3, while block 0 records level
// L - 1 from queue (L + 2) % 3 and empties it; one barrier a level. With a delta the far pile
// (near-far, Davidson et al., IPDPS 2014) holds the vertices at or above the threshold, in
// `far_bits` and two far queues: when the near queue is empty the threshold becomes the least far
// value plus delta and the far vertices below it move near. A queue that fills sets `overflow`:
// the vertex's bit is set all the same, and the loop hands back after that level. On exit the
// far bits join the frontier bitmap, so that the host loop finds every active vertex there.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/kernels/near_far.hpp"
#include "ooc/kernels/requests.hpp"

namespace ooc::cuda {

namespace cg = cooperative_groups;

// One queue's counters: its vertices and their edges as it fills, whether a queue filled while
// it did (the far pile's too), and what processing it did. A level reads only the counters of
// the queue it processes, which no thread writes while it runs: every branch is taken alike.
struct LoopSlot {
  unsigned long long vertices, edges;   // queued
  unsigned long long overflow;          // a queue was full
  unsigned long long processed, lines;  // edges relaxed, zero-copy lines read
};

// One level as the host reads it back.
struct LoopLevel {
  LoopSlot slot;
  unsigned long long start_ns;  // %globaltimer when the level began
};

struct LoopState {
  std::uint64_t* near_bits;  // the frontier bitmap
  std::uint64_t* far_bits;   // the far pile's members (piles only)
  vid_t* near;               // 3 queues of near_capacity
  vid_t* far;                // 2 queues of far_capacity (piles only)
  std::uint64_t near_capacity, far_capacity;
  LoopSlot* slots;                // 3, zeroed
  unsigned long long* far_count;  // 2, zeroed
  unsigned long long* least;      // ~0: the split's least far value (order_key)
  LoopLevel* levels;              // max_levels + 1
  unsigned long long* ran;        // [0] levels run, [1] %globaltimer at the end
  vid_t n;
  std::uint64_t max_edges;  // FrontierLoop::edges
  std::uint32_t max_levels;
  double delta;  // 0: one pile
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned long long read(const unsigned long long* p) {
  return *static_cast<const volatile unsigned long long*>(p);
}

// Appends t to a queue (the calling lanes together: one atomic per group of them), adding
// `degree` to the queue's edges when it has any.
__device__ __forceinline__ void enqueue(vid_t* queue, unsigned long long* count,
                                        unsigned long long* edges, std::uint64_t capacity,
                                        unsigned long long* overflow, vid_t t,
                                        unsigned long long degree) {
  const cg::coalesced_group g = cg::coalesced_threads();
  unsigned long long base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
  base = g.shfl(base, 0);
  if (edges != nullptr) {
    const unsigned long long sum = cg::reduce(g, degree, cg::plus<unsigned long long>());
    if (g.thread_rank() == 0) atomicAdd(edges, sum);
  }
  const unsigned long long at = base + g.thread_rank();
  if (at < capacity) {
    queue[at] = t;
  } else {
    atomicExch(overflow, 1ull);
  }
}

// The marker the loop's relaxes go through (advance.cuh's mark): a lowered target joins the
// next near queue, or with piles the far pile when its value is at or above the threshold.
template <class Value>
struct LoopMark {
  const Value* values;
  const eid_t* offsets;
  std::uint64_t* near_bits;
  std::uint64_t* far_bits;
  vid_t* queue;  // the next level's
  LoopSlot* slot;
  vid_t* far;  // the current far queue
  unsigned long long* far_count;
  std::uint64_t near_capacity, far_capacity;
  bool piles;
  double threshold;

  __device__ bool goes_far(vid_t v) const {
    return piles && static_cast<double>(atomic_load(values + v)) >= threshold;
  }
  __device__ void to_far(vid_t v) const {
    if (bit_set(far_bits, v)) enqueue(far, far_count, nullptr, far_capacity, &slot->overflow, v, 0);
  }
  // v, whose near bit this thread set, into the next near queue.
  __device__ void to_near(vid_t v) const {
    enqueue(queue, &slot->vertices, &slot->edges, near_capacity, &slot->overflow, v,
            offsets[v + 1] - offsets[v]);
  }
};

template <class Value>
__device__ __forceinline__ void mark(const LoopMark<Value>& m, vid_t t) {
  // The lowered value before the bit: whoever clears the bit and then reads the value sees it.
  __threadfence();
  if (m.goes_far(t)) {
    m.to_far(t);
  } else if (bit_set(m.near_bits, t)) {
    m.to_near(t);
  }
}

// What a warp counts of its reads, lane 0's added to the level's slot at the end.
struct LoopReads {
  unsigned long long lines = 0;
};

// Where the loop reads vertex v's list: relax(program, dst, mark, message, v, degree, lane,
// reads) relaxes it with the whole warp and counts the reads in `reads` (lane 0's are summed).
//
// In GPU memory (in-memory mode): the resident copy.
struct ResidentLoopLists {
  OffsetEdges edges;

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& mark,
                        Message<P> message, vid_t v, eid_t degree, unsigned lane,
                        LoopReads&) const {
    const eid_t begin = edges.offsets[v];
    relax_range(program, dst, mark, message, edges.targets + begin,
                edges.weights == nullptr ? nullptr : edges.weights + begin, 0, degree, lane);
  }
};

// Raw lists out of core, read from pinned host memory by zero-copy.
struct RawLoopLists {
  OffsetEdges host;
  std::uint32_t line;  // bytes per zero-copy request

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& mark,
                        Message<P> message, vid_t v, eid_t degree, unsigned lane,
                        LoopReads& reads) const {
    const eid_t begin = host.offsets[v];
    relax_range(program, dst, mark, message, host.targets + begin,
                host.weights == nullptr ? nullptr : host.weights + begin, 0, degree, lane);
    const std::uint64_t lines = lines_spanned(begin * sizeof(vid_t), degree * sizeof(vid_t), line);
    reads.lines += host.weights == nullptr ? lines : 2 * lines;  // targets, and weights
  }
};

// Compressed lists out of core, read in place from pinned host memory, a block per step
// through the warp's line window.
struct CompressedLoopLists {
  CompressedEdges host;
  std::uint32_t line;
  std::uint32_t weight_bits;  // 0: the program reads none

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& mark,
                        Message<P> message, vid_t v, eid_t degree, unsigned lane,
                        LoopReads& reads) const {
    const eid_t first_edge = host.offsets[v];
    const std::uint64_t list_bytes = host.coffsets[v + 1] - host.coffsets[v];
    ListWindows windows(lane, host);
    relax_blocks(program, dst, mark, message, windows, host.packed,
                 reinterpret_cast<std::uintptr_t>(host.lists + host.coffsets[v]) +
                     codec::table_bytes(degree),
                 0, degree, host.weights == nullptr ? nullptr : host.weights + first_edge,
                 first_edge, lane);
    std::uint64_t held = ~0ull;
    reads.lines += window_lines(host.coffsets[v], list_bytes, line, held) +
                   (weight_bits == 0 ? 0 : weight_lines(first_edge, degree, weight_bits, line));
  }
};

// The near pile from the frontier bitmap, or with piles those below the least value plus delta
// (the others to the far pile): a thread per word.
template <class Value>
__device__ void loop_fill(const LoopMark<Value>& m, vid_t n) {
  const std::uint64_t words = (std::uint64_t{n} + 63) / 64;
  for (std::uint64_t w = grid_thread(); w < words; w += grid_threads()) {
    for (std::uint64_t bits = live_bits(m.near_bits, w, n); bits != 0; bits &= bits - 1) {
      const auto v = static_cast<vid_t>(
          (w << 6) + static_cast<std::uint64_t>(__ffsll(static_cast<long long>(bits)) - 1));
      if (m.goes_far(v)) {
        atomicAnd(reinterpret_cast<unsigned long long*>(m.near_bits + (v >> 6)),
                  ~(1ull << (v & 63)));
        m.to_far(v);
      } else {
        m.to_near(v);
      }
    }
  }
}

// The least value over the frontier bitmap (`near`) or over the far queue's members still far,
// into *s.least as an order_key.
template <class Value>
__device__ void loop_least(const LoopState& s, const Value* values, const vid_t* far,
                           unsigned long long far_count, bool near) {
  unsigned long long least = ~0ull;
  if (near) {
    const std::uint64_t words = (std::uint64_t{s.n} + 63) / 64;
    for (std::uint64_t w = grid_thread(); w < words; w += grid_threads()) {
      for (std::uint64_t bits = live_bits(s.near_bits, w, s.n); bits != 0; bits &= bits - 1) {
        const auto v = static_cast<vid_t>(
            (w << 6) + static_cast<std::uint64_t>(__ffsll(static_cast<long long>(bits)) - 1));
        least = min(least, order_key(static_cast<double>(values[v])));
      }
    }
  } else {
    for (std::uint64_t i = grid_thread(); i < far_count; i += grid_threads()) {
      const vid_t v = far[i];
      if (bit_test(s.far_bits, v)) least = min(least, order_key(static_cast<double>(values[v])));
    }
  }
  least = warp_min(least);
  if (threadIdx.x % kWarp == 0 && least != ~0ull) atomicMin(s.least, least);
}

// The far queue's members below the threshold move near; the others go to the other far queue.
template <class Value>
__device__ void loop_split(const LoopMark<Value>& m, const vid_t* far, unsigned long long count) {
  for (std::uint64_t i = grid_thread(); i < count; i += grid_threads()) {
    const vid_t v = far[i];
    if (!bit_test(m.far_bits, v)) continue;  // processed near since it was queued far
    if (m.goes_far(v)) {
      enqueue(m.far, m.far_count, nullptr, m.far_capacity, &m.slot->overflow, v, 0);
      continue;
    }
    atomicAnd(reinterpret_cast<unsigned long long*>(m.far_bits + (v >> 6)), ~(1ull << (v & 63)));
    if (bit_set(m.near_bits, v)) m.to_near(v);
  }
}

// Level processing: a warp per queued vertex. Lane 0 clears its bits, then reads its value (after
// a fence, so that a lowering whose mark came before the clear is seen).
template <class P, class Lists>
__device__ void loop_level(const P& program, typename P::Value* values, const Lists& lists,
                           const LoopMark<typename P::Value>& m, const vid_t* queue,
                           unsigned long long count, LoopSlot& done, const eid_t* offsets) {
  const unsigned lane = threadIdx.x % kWarp;
  LoopReads reads;
  unsigned long long processed = 0;
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const vid_t v = queue[i];
    typename P::Value value{};
    if (lane == 0) {
      atomicAnd(reinterpret_cast<unsigned long long*>(m.near_bits + (v >> 6)), ~(1ull << (v & 63)));
      if (m.piles) {
        atomicAnd(reinterpret_cast<unsigned long long*>(m.far_bits + (v >> 6)),
                  ~(1ull << (v & 63)));
      }
      __threadfence();
      value = atomic_load(values + v);
    }
    const Message<P> message = shfl_message(make_message<P>(value, v), 0);
    const eid_t degree = offsets[v + 1] - offsets[v];
    if (degree == 0) continue;
    lists.relax(program, values, m, message, v, degree, lane, reads);
    processed += degree;
  }
  if (lane == 0) {
    if (processed != 0) atomicAdd(&done.processed, processed);
    if (reads.lines != 0) atomicAdd(&done.lines, reads.lines);
  }
}

// The loop. Every thread runs every step, and every branch is taken alike by all of them: each
// reads the counters it branches on only after a grid-wide barrier.
template <class P, class Lists>
__global__ void frontier_loop_kernel(P program, typename P::Value* values, const eid_t* offsets,
                                     LoopState s, Lists lists) {
  static_assert(P::kind == ProgramKind::monotone, "the loop serves monotone programs");
  const cg::grid_group grid = cg::this_grid();
  const bool piles = s.delta > 0;
  const bool lead = grid.thread_rank() == 0;
  unsigned far_side = 0;
  LoopMark<typename P::Value> m{values,          offsets,        s.near_bits, s.far_bits,
                                s.near,          s.slots,        s.far,       s.far_count,
                                s.near_capacity, s.far_capacity, piles,       0.0};
  if (piles) {
    loop_least(s, values, nullptr, 0, true);
    grid.sync();
    const unsigned long long least = read(s.least);
    m.threshold = least == ~0ull ? 0.0 : threshold_above(from_order_key(least), s.delta);
    grid.sync();  // every thread has read it
    if (lead) *s.least = ~0ull;
  }
  loop_fill(m, s.n);
  grid.sync();
  std::uint32_t level = 0, slot = 0;
  for (;;) {
    const unsigned long long queued = read(&s.slots[slot].vertices);
    if (read(&s.slots[slot].overflow) != 0) break;
    if (queued == 0) {
      const unsigned long long far_queued = piles ? read(s.far_count + far_side) : 0;
      if (far_queued == 0) break;  // converged
      // The near pile is done: the threshold rises past the least far value.
      const vid_t* far = s.far + far_side * s.far_capacity;
      const unsigned long long members = far_queued < s.far_capacity ? far_queued : s.far_capacity;
      loop_least(s, values, far, members, false);
      grid.sync();
      const unsigned long long least = read(s.least);
      if (least != ~0ull) m.threshold = threshold_above(from_order_key(least), s.delta);
      m.queue = s.near + slot * s.near_capacity;
      m.slot = s.slots + slot;
      m.far = s.far + (far_side ^ 1) * s.far_capacity;
      m.far_count = s.far_count + (far_side ^ 1);
      loop_split(m, far, members);
      grid.sync();
      if (lead) {
        s.far_count[far_side] = 0;
        *s.least = ~0ull;
      }
      far_side ^= 1;
      grid.sync();
      continue;
    }
    if (level == s.max_levels || read(&s.slots[slot].edges) > s.max_edges) break;
    const std::uint32_t next = (slot + 1) % 3, old = (slot + 2) % 3;
    if (lead) {
      s.levels[level].start_ns = global_ns();
      if (level > 0) s.levels[level - 1].slot = s.slots[old];
      s.slots[old] = {};
    }
    m.queue = s.near + next * s.near_capacity;
    m.slot = s.slots + next;
    m.far = s.far + far_side * s.far_capacity;
    m.far_count = s.far_count + far_side;
    loop_level(program, values, lists, m, s.near + slot * s.near_capacity,
               queued < s.near_capacity ? queued : s.near_capacity, s.slots[slot], offsets);
    grid.sync();
    slot = next;
    ++level;
  }
  // Hand back: the last level's record, and the far pile into the frontier bitmap.
  if (lead) {
    if (level > 0) s.levels[level - 1].slot = s.slots[(slot + 2) % 3];
    s.ran[0] = level;
    s.ran[1] = global_ns();
  }
  if (piles) {
    const std::uint64_t words = (std::uint64_t{s.n} + 63) / 64;
    for (std::uint64_t w = grid_thread(); w < words; w += grid_threads()) {
      if (s.far_bits[w] == 0) continue;
      s.near_bits[w] |= s.far_bits[w];
      s.far_bits[w] = 0;
    }
  }
}

}  // namespace ooc::cuda
