#pragma once
// The frontier loop on the GPU (ooc/engine/frontier_loop.hpp says when the engine runs it): one
// persistent kernel, cooperatively launched so that every block is resident, runs level after
// level with the frontier as queues in GPU memory and a grid-wide barrier between levels, as
// Groute's fused kernel does (PPoPP 2017); no host round trip per level. A tile of threads takes
// each queued vertex and relaxes its list together: 8 lanes for a short list (a level of a grid is
// a few thousand lists of 4, so four of them per warp keep every list's reads and atomics in flight
// at once), the whole warp for a long one. A compressed list is read in whole aligned lines, 32
// bytes for a tile and 128 for a warp, and decoded from them (EMOGI; line_window.cuh).
// loop_lists.cuh says where each list is: GPU memory, the edge cache, or pinned host memory by
// zero-copy.
//
// Queues: loop_queues.cuh.
//
// Hops. A level's cost is its chain of dependent memory round trips and its barrier, not its few
// thousand edges; so a target of at most kHopEdges edges that a lane lowers is set aside and its
// list relaxed by the lane's warp once the warp's lists are done, rather than queued, and so on
// for up to LoopState::hops lists in a row; the last lowered are queued. A monotone
// program's values are the same whatever the order of its relaxes, so the result is unchanged,
// and a level advances a BFS of a grid or a road network by hops + 1 levels for a few round trips
// more; a target lowered again later is marked again by whoever lowers it. A hop's edges are
// counted apart (LoopSlot::hopped), as processed edges.
//
// Long lists. A warp relaxing a list alone takes one round trip per 32 edges, so one list of 10^4
// edges held a whole level for some 300 of them (k-core's shells peel hubs inside the loop). A
// list of more than kLoopHeavyEdges edges is therefore handed to the next level as a heavy item,
// in the next queue's slot, one atomic giving it its place and its first chunk, as the host
// path's heavy queue does (advance.cuh); the next level spreads its items' chunks of kHeavyChunk
// edges over every warp of the grid (a binary search finds a chunk's item) beside its own queue,
// each chunk relaxed from its vertex's value as the chunk reads it. The vertex's bit was cleared
// when its level took it, so a vertex lowered again is queued again, as any other; a monotone
// program's values do not depend on the order of its relaxes, and a vertex k-core peels is queued
// once. A level with only heavy items still runs; the loop is done when a level has neither. If
// the loop hands back first, the items' vertices join the frontier bitmap.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/loop_lists.cuh"
#include "ooc/kernels/cuda/loop_queues.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/kernels/near_far.hpp"

namespace ooc::cuda {

namespace cg = cooperative_groups;

inline constexpr unsigned kLoopThreads = 512;
// One block per SM: a barrier's cost grows with the blocks, four lists per warp keep 64 per SM in
// flight, and the kernel may take 128 registers a thread (compressed lists then spill 12 bytes,
// against 452 at two blocks a SM and 64 registers, where out of core SSSP took 0.20 s against
// 0.16 s on the 4096² grid).
inline constexpr unsigned kLoopBlocksPerSm = 1;
// The marker of a level's relaxes: while `hops` are left, a lowered near target of 1 to
// kHopEdges edges is set aside in the lane's LoopReads (one at a time) for relax_set_aside rather
// than queued; the others go where LoopMark's mark sends them. kMinOffer: the program's relax() is
// the min of offer() into the target and its values are unsigned integers (loop_lists.cuh's
// relax_loop_edge), so a lowered target comes with the value it was lowered to, which decides
// near or far without reading it back.
template <class P, class Lists, bool kMinOfferProgram>
struct HopMark : LoopMark<typename P::Value> {
  static constexpr bool kMinOffer = kMinOfferProgram;
  typename P::Value* dst;
  const P* program;
  const Lists* lists;
  LoopReads* reads;  // the lane's counters and its target set aside
  std::uint32_t hops;
};

template <class P, class Lists, bool kMinOffer>
__device__ __forceinline__ void mark(const HopMark<P, Lists, kMinOffer>& m, vid_t t,
                                     ListPlace place, typename P::Value lowered_to = {}) {
  if (kMinOffer ? m.far_value(lowered_to) : m.goes_far(t)) {
    m.to_far(t);
  } else if (m.hops > 0 && place.edges != 0 && place.edges <= kHopEdges && m.reads->hop_left == 0) {
    m.reads->hop_vertex = t;
    m.reads->hop_place = place;
    m.reads->hop_left = m.hops;
    if constexpr (kMinOffer) m.reads->hop_value = lowered_to;
  } else if (bit_set(m.near_bits, t)) {
    m.to_near(t, place.edges);
  }
}

// The targets the warp's lanes set aside for a hop, relaxed a round at a time, a tile of
// Lists::kTile threads each (up to four lists at once, so that their reads and atomics are in
// flight together), in lane order, each with one hop fewer than it was set aside with, so that the
// lanes may set aside more, for fewer hops, until none are left. A target's message is the value it
// was lowered to where the marker knows it (kMinOffer), else its value read again; a value lowered
// further since is no matter, as whoever lowered it marked t again.
template <class P, class Lists, bool kMinOffer>
__device__ void relax_set_aside(HopMark<P, Lists, kMinOffer> m, unsigned lane) {
  constexpr unsigned kTile = Lists::kTile, kTiles = kWarp / kTile;
  static_assert(kHopEdges <= Lists::kTileEdges, "a hop's list is a tile's");
  LoopReads& reads = *m.reads;
  const unsigned tile = lane / kTile, rank = lane % kTile;
  for (unsigned waiting = __ballot_sync(kFullMask, reads.hop_left != 0); waiting != 0;
       waiting = __ballot_sync(kFullMask, reads.hop_left != 0)) {
    unsigned mine = waiting;  // this tile's: the waiting lane after `tile` others
    for (unsigned k = 0; k < tile; ++k)
      mine &= mine - 1;
    const int from = mine != 0 ? __ffs(static_cast<int>(mine)) - 1 : 0;
    const auto t = static_cast<vid_t>(__shfl_sync(kFullMask, reads.hop_vertex, from));
    const std::uint32_t left = __shfl_sync(kFullMask, reads.hop_left, from);
    const ListPlace place{__shfl_sync(kFullMask, reads.hop_place.first, from),
                          __shfl_sync(kFullMask, reads.hop_place.edges, from)};
    typename P::Value value{};
    if constexpr (kMinOffer) {
      value = static_cast<typename P::Value>(__shfl_sync(kFullMask, reads.hop_value, from));
    }
    // The first kTiles waiting lanes are taken this round.
    if (reads.hop_left != 0 && __popc(waiting & ((1u << lane) - 1)) < static_cast<int>(kTiles))
      reads.hop_left = 0;
    if (mine == 0) continue;
    m.hops = left - 1;
    if (rank == 0) reads.hopped += place.edges;
    if constexpr (!kMinOffer) value = atomic_load(m.dst + t);
    m.lists->relax(*m.program, m.dst, m, make_message<P>(value, t), t, place, rank, kTile, reads);
  }
}

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
        bit_clear(m.near_bits, v);
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
      for (std::uint64_t bits = live_bits(s.bits[0], w, s.n); bits != 0; bits &= bits - 1) {
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

// The far queue's members below the threshold move near (m.near_bits, m.queue: this level's);
// the others go to the other far queue (m.far).
template <class Value>
__device__ void loop_split(const LoopMark<Value>& m, const vid_t* far, unsigned long long count) {
  for (std::uint64_t i = grid_thread(); i < count; i += grid_threads()) {
    const vid_t v = far[i];
    if (!bit_test(m.far_bits, v)) continue;  // processed near since it was queued far
    if (m.goes_far(v)) {
      enqueue_far(m.far, m.far_count, m.slot, m.far_capacity, v);
      continue;
    }
    bit_clear(m.far_bits, v);
    if (bit_set(m.near_bits, v)) m.to_near(v);
  }
}

// A program whose run goes on once the loop's queues run dry opens more vertices itself (k-core's
// next shell: engine/cuda/kcore_step.cuh): reopen(program, m, grid, lead), by every thread, puts
// them in the level's queue and bitmap (m.queue, m.near_bits) and returns whether it opened any.
// Not for programs with piles.
template <class P>
struct LoopReopen {
  static constexpr bool kReopens = false;
};

// Hands the list of v at `place` (more than kLoopHeavyEdges edges) to the next level as a heavy
// item (one thread): the next slot's counter (m.slot) gives it a place among that slot's items
// (`items`) and its first chunk. Past `capacity`, which a level's edges cannot fill, the vertex
// would be queued as a queue that fills queues it: its bit set, the loop handing back.
template <class Value>
__device__ __forceinline__ void defer_heavy(const LoopMark<Value>& m, LoopHeavy* items,
                                            std::uint64_t capacity, vid_t v, ListPlace place,
                                            LoopReads& reads) {
  const unsigned long long chunks = (place.edges + kHeavyChunk - 1) / kHeavyChunk;
  const unsigned long long at = atomicAdd(&m.slot->heavy, (1ull << kChunkBits) + chunks);
  const unsigned long long item = at >> kChunkBits;
  reads.deferred += place.edges;  // this level does not relax them, whoever does
  if (item < capacity) {
    items[item] = {v, place, at & ((1ull << kChunkBits) - 1)};
  } else {
    bit_set(m.near_bits, v);
    atomicExch(&m.slot->overflow, 1ull);
  }
}

// The item that global chunk g of a slot's heavy items belongs to: the one whose first chunk is the
// largest not above g.
__device__ __forceinline__ LoopHeavy heavy_of_chunk(const LoopHeavy* items,
                                                    unsigned long long count, std::uint64_t g) {
  unsigned long long lo = 0, hi = count;
  while (hi - lo > 1) {
    const unsigned long long mid = (lo + hi) / 2;
    if (items[mid].first_chunk <= g) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return items[lo];
}

// One level. Tile t of Lists::kTile threads in warp w takes the queue's entries w + t * warps,
// then every warps * (tiles a warp holds) on, so that a level of fewer vertices than warps gives
// each warp one (`count` from `queue`, their bits in `bits`). The tile's first thread clears the
// vertex's bits; every thread reads its value (one line, from the L1 for all but the first). A
// list of up to Lists::kTileEdges edges is relaxed by its tile; a longer one of up to
// kLoopHeavyEdges by the whole warp, one after another; a longer one still goes to the next level
// as a heavy item (`defer_to`, `capacity`). Then the warps share this level's heavy items (`heavy`,
// whose counter the level's slot holds: `heavy_seen`), a chunk each at a time. The lowered targets
// take `hops` hops (HopMark; relax_set_aside after each round of lists). A vertex's value is read
// beside its list's place, not after it. The reads, the hops' edges and the heavy lists' are
// summed per block, then into `done`.
template <class P, class Lists, bool kMinOffer>
__device__ void loop_level(const P& program, typename P::Value* values, const Lists& lists,
                           const LoopMark<typename P::Value>& base, std::uint32_t hops,
                           const vid_t* queue, std::uint64_t* bits, unsigned long long count,
                           const LoopHeavy* heavy, unsigned long long heavy_seen,
                           LoopHeavy* defer_to, std::uint64_t capacity, LoopSlot& done,
                           const eid_t* offsets) {
  constexpr unsigned kTile = Lists::kTile;
  constexpr unsigned kSums = 5;
  __shared__ unsigned long long block_reads[kSums];
  if (threadIdx.x < kSums) block_reads[threadIdx.x] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % kWarp, rank = lane % kTile;
  const std::uint64_t warps = warp_count(), first = global_warp() + lane / kTile * warps;
  LoopReads reads;
  const HopMark<P, Lists, kMinOffer> m{base, values, &program, &lists, &reads, hops};
  for (std::uint64_t base = 0; base < count; base += warps * (kWarp / kTile)) {
    vid_t v = 0;
    ListPlace place;
    Message<P> message{};
    if (base + first < count) {
      v = queue[base + first];
      if (rank == 0) {
        bit_clear(bits, v);
        if (m.piles) bit_clear(m.far_bits, v);
      }
      message = make_message<P>(atomic_load(values + v), v);
      place = list_place(offsets, v);
    }
    const bool tile_takes = place.edges <= Lists::kTileEdges;
    if (place.edges != 0 && tile_takes) {
      lists.relax(program, values, m, message, v, place, rank, kTile, reads);
    }
    const bool heavy_list = place.edges > kLoopHeavyEdges;
    if (rank == 0 && heavy_list) defer_heavy(m, defer_to, capacity, v, place, reads);
    if constexpr (kTile < kWarp) {
      for (unsigned rest = __ballot_sync(kFullMask, rank == 0 && !tile_takes && !heavy_list);
           rest != 0; rest &= rest - 1) {
        const int from = __ffs(static_cast<int>(rest)) - 1;
        const ListPlace at{__shfl_sync(kFullMask, place.first, from),
                           __shfl_sync(kFullMask, place.edges, from)};
        lists.relax(program, values, m, shfl_message(message, from),
                    static_cast<vid_t>(__shfl_sync(kFullMask, v, from)), at, lane, kWarp, reads);
      }
    }
    relax_set_aside(m, lane);
  }
  const unsigned long long items = heavy_seen >> kChunkBits;
  const std::uint64_t chunks = heavy_seen & ((1ull << kChunkBits) - 1);
  for (std::uint64_t g = global_warp(); g < chunks; g += warps) {
    const LoopHeavy item = heavy_of_chunk(heavy, items, g);
    const eid_t c = g - item.first_chunk;
    lists.relax_chunk(program, values, m, make_message<P>(atomic_load(values + item.v), item.v),
                      item.v, item.place, c, lane, reads);
    if (lane == 0) reads.drained += chunk_place(item.place, c).edges;
    relax_set_aside(m, lane);
  }
  const unsigned long long sums[kSums] = {reads.zerocopy, reads.cached, reads.hopped,
                                          reads.deferred, reads.drained};
  for (unsigned i = 0; i < kSums; ++i) {
    if (sums[i] != 0) atomicAdd(&block_reads[i], sums[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long* const into[kSums] = {&done.zerocopy, &done.cached, &done.hopped,
                                             &done.deferred, &done.drained};
    for (unsigned i = 0; i < kSums; ++i) {
      if (block_reads[i] != 0) atomicAdd(into[i], block_reads[i]);
    }
  }
}

// The loop. Every thread runs every step, and every branch is taken alike by all of them: each
// reads the counters it branches on only after a grid-wide barrier, and no thread writes them
// until the next.
template <class P, class Lists, bool kMinOffer>
__global__ void __launch_bounds__(kLoopThreads, kLoopBlocksPerSm)
    frontier_loop_kernel(P program, typename P::Value* values, const eid_t* offsets, LoopState s,
                         Lists lists) {
  static_assert(P::kind == ProgramKind::monotone, "the loop serves monotone programs");
  const cg::grid_group grid = cg::this_grid();
  const bool piles = s.delta > 0;
  // The bookkeeping thread: the last warp's first, whose warp takes a vertex only in the levels
  // that hold more vertices than warps.
  const bool lead = grid.thread_rank() == grid.num_threads() - kWarp;
  unsigned far_side = 0;
  LoopMark<typename P::Value> m{values,          offsets,        s.bits[0], s.far_bits,
                                s.near,          s.slots,        s.far,     s.far_count,
                                s.near_capacity, s.far_capacity, piles,     0.0};
  if (piles) {
    loop_least(s, values, nullptr, 0, true);
    grid.sync();
    const unsigned long long least = loop_least_seen(s.least);
    m.threshold = least == ~0ull ? 0.0 : threshold_above(from_order_key(least), s.delta);
    grid.sync();  // every thread has read it
    if (lead) *s.least = ~0ull;
  }
  loop_fill(m, s.n);
  grid.sync();
  std::uint32_t level = 0, slot = 0;
  unsigned long long pending = 0;  // the heavy items of the level the loop did not run
  for (;;) {
    const LoopSeen seen = loop_seen(s.slots[slot], piles ? s.far_count + far_side : nullptr);
    const unsigned long long queued = seen.queued & ((1ull << kLoopCountBits) - 1);
    if (seen.overflow != 0) {
      pending = seen.heavy;
      break;
    }
    std::uint64_t* bits = s.bits[level % 2];
    if (queued == 0 && seen.heavy == 0) {
      const unsigned long long far_queued = seen.far;
      if (far_queued == 0) {
        if constexpr (LoopReopen<P>::kReopens) {
          m.near_bits = bits;
          m.queue = s.near + slot * s.near_capacity;
          m.slot = s.slots + slot;
          if (LoopReopen<P>::reopen(program, m, grid, lead)) continue;
        }
        break;  // converged
      }
      // The near pile is done: the threshold rises past the least far value.
      const vid_t* far = s.far + far_side * s.far_capacity;
      const unsigned long long members = far_queued < s.far_capacity ? far_queued : s.far_capacity;
      loop_least(s, values, far, members, false);
      grid.sync();
      const unsigned long long least = loop_least_seen(s.least);
      if (least != ~0ull) m.threshold = threshold_above(from_order_key(least), s.delta);
      m.near_bits = bits;
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
    if (level == s.max_levels || (seen.queued >> kLoopCountBits) > s.max_edges) {
      pending = seen.heavy;
      break;
    }
    const std::uint32_t next = (slot + 1) % 3, old = (slot + 2) % 3;
    if (lead) {
      s.levels[level].start_ns = global_ns();
      if (level > 0) s.levels[level - 1].slot = s.slots[old];
      s.slots[old] = {};
    }
    m.near_bits = s.bits[(level + 1) % 2];
    m.queue = s.near + next * s.near_capacity;
    m.slot = s.slots + next;
    m.far = s.far + far_side * s.far_capacity;
    m.far_count = s.far_count + far_side;
    loop_level<P, Lists, kMinOffer>(
        program, values, lists, m, s.hops, s.near + slot * s.near_capacity, bits,
        queued < s.near_capacity ? queued : s.near_capacity, s.heavy + slot * s.heavy_capacity,
        seen.heavy, s.heavy + next * s.heavy_capacity, s.heavy_capacity, s.slots[slot], offsets);
    grid.sync();
    slot = next;
    ++level;
  }
  // Hand back: the last level's record, and the queued, far and heavy vertices into the frontier
  // bitmap (the heavy ones first, whose bits the merge below must see).
  if (pending != 0) {
    const LoopHeavy* items = s.heavy + slot * s.heavy_capacity;
    const unsigned long long count = pending >> kChunkBits;
    const unsigned long long stored = count < s.heavy_capacity ? count : s.heavy_capacity;
    for (std::uint64_t i = grid_thread(); i < stored; i += grid_threads())
      bit_set(s.bits[0], items[i].v);
    grid.sync();
  }
  if (lead) {
    if (level > 0) s.levels[level - 1].slot = s.slots[(slot + 2) % 3];
    s.ran[0] = level;
    s.ran[1] = global_ns();
  }
  const std::uint64_t words = (std::uint64_t{s.n} + 63) / 64;
  for (std::uint64_t w = grid_thread(); w < words; w += grid_threads()) {
    const std::uint64_t more = s.bits[1][w] | (piles ? s.far_bits[w] : 0);
    if (more == 0) continue;
    s.bits[0][w] |= more;
    s.bits[1][w] = 0;
    if (piles) s.far_bits[w] = 0;
  }
}

}  // namespace ooc::cuda
