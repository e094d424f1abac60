#pragma once
// The advance operator: one for every program, every transfer engine and every graph, in two
// load-balancing mappings (EngineOptions::load_balance). This file holds what they share and the
// simple one, warp per vertex; advance_tiled.cuh holds SAGE's tiled one. Here a warp takes one
// active vertex at a time and its lanes walk the vertex's out-edges 32 at a time, reading them
// wherever they are — staged partitions (filter), compacted batches (compaction),
// pinned host memory through the mapping (zero-copy), device memory (in-memory mode) or
// managed memory (unified).
//
// EMOGI's merged and aligned access (VLDB'21 §4.3.2): the warp starts at the 128-byte line that
// holds the list's first element, lanes below the true start idling for that first step, so
// every request the warp issues is one whole, aligned 128-byte line — the request size that
// fills a PCIe read completion. It costs nothing for data in device memory and is what makes
// zero-copy run near the link's peak.
//
// Work comes two ways: from the work bitmap over a task's vertex ranges (a warp per 64-vertex
// word), or from a compacted batch (a warp per listed vertex).
//
// Load balance: a warp per vertex serialises a hub — on Kronecker graphs one list can hold a
// few percent of all edges, and hub sort packs the hubs into the same partitions. A vertex with
// at least kHeavyDegree edges is therefore not walked by its warp: lane 0 takes its message and
// appends it to the stream's heavy queue, and heavy_kernel then spreads every queued list over
// the whole grid in 1024-edge chunks (node splitting, after Raval et al.; the split is decided
// per vertex at run time, so no preprocessing is needed).
#include <cstdint>
#include <type_traits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/line_window.cuh"
#include "ooc/kernels/message.hpp"

namespace ooc::cuda {

inline constexpr unsigned kLineElements = 128 / sizeof(vid_t);
inline constexpr eid_t kHeavyDegree = 4096;
inline constexpr eid_t kHeavyChunk = 1024;  // edges per warp in heavy_kernel
// A compressed heavy list's chunk of edges is one of its codec chunks, which its table reaches.
static_assert(kHeavyChunk == codec::kChunk);
// A queue's counter packs the item count (high 24 bits) and the chunks queued so far (low 40),
// so that one atomicAdd gives an item both its slot and its first chunk, in the same order.
inline constexpr unsigned kChunkBits = 40;

// Weights packed at one width (codec::packed_weight), read in place beside compressed lists.
struct PackedWeights {
  const std::uint8_t* bits;  // null: the weights are not packed
  const std::uint8_t* end;   // one past the padding: nothing beyond is read
  std::uint32_t width, base;
};

// Compressed lists read in place, from pinned host memory (zero-copy) or the edge cache: vertex
// v's list at lists + coffsets[v] - its range's list_shift, its degree from the offsets, its raw
// weights at weights[offsets[v] - its range's shift ...] (null: none or packed), or its packed
// weights from edge offsets[v] - shift on.
struct CompressedEdges {
  const eid_t* offsets;
  const eid_t* coffsets;
  const std::uint8_t* lists;
  const std::uint8_t* lists_end;  // one past the lists' padding: nothing beyond is read
  const std::uint32_t* weights;
  PackedWeights packed;
};

// A list queued for heavy_kernel; Msg is the program's Message (message.hpp).
template <class Msg>
struct HeavyItem {
  const vid_t* targets;
  const std::uint8_t* list;  // the list compressed (advance_compressed_kernel), or null
  const std::uint32_t* weights;
  eid_t degree;
  unsigned long long first_chunk;
  eid_t first_edge;  // a compressed list's first edge, where its packed weights start
  Msg message;
};

template <class Msg>
struct HeavyQueue {
  HeavyItem<Msg>* items;
  unsigned long long* counter;
  std::uint64_t capacity;
  CompressedEdges lists;  // what compressed items read: the lists' end, packed weights
};

template <class P>
struct ProgramState {
  typename P::Value* values;
  typename P::Value* deltas;  // accumulative programs
  std::uint64_t* next;
  unsigned long long* edges_processed;
  HeavyQueue<Message<P>> heavy;
};

// Where a successful relax marks its target: a bit of the next frontier, or, for the frontier
// loop (frontier_loop.cuh), a marker of its own type with a mark(marker, t) beside it.
__device__ __forceinline__ void mark(std::uint64_t* next, vid_t t) {
  bit_set(next, t);
}

// One edge: relax the target and mark it active when its value changed.
template <class P, class Next>
__device__ __forceinline__ void relax_edge(const P& program, typename P::Value* dst, Next next,
                                           Message<P> message, const vid_t* targets,
                                           const std::uint32_t* weights, eid_t j) {
  const vid_t t = targets[j];
  if (relax_edge_to(program, message, weights == nullptr ? 0u : weights[j], dst, t)) mark(next, t);
}

// Relaxes targets[begin, end) with a tile of `size` threads (this one is `rank`), starting at
// the 128-byte line that holds targets[begin] (EMOGI's aligned access).
template <class P, class Next>
__device__ __forceinline__ void relax_range(const P& program, typename P::Value* dst, Next next,
                                            Message<P> message, const vid_t* targets,
                                            const std::uint32_t* weights, eid_t begin, eid_t end,
                                            unsigned rank, unsigned size = kWarp) {
  const auto skew = static_cast<std::int64_t>(
      (reinterpret_cast<std::uintptr_t>(targets + begin) % 128) / sizeof(vid_t));
  for (std::int64_t j = static_cast<std::int64_t>(begin) + rank - skew;
       j < static_cast<std::int64_t>(end); j += size) {
    if (j < static_cast<std::int64_t>(begin)) continue;
    relax_edge(program, dst, next, message, targets, weights, static_cast<eid_t>(j));
  }
}

// Edges addressed through the global offsets: vertex v's list is targets[offsets[v] - shift ...].
struct OffsetEdges {
  const eid_t* offsets;
  const vid_t* targets;
  const std::uint32_t* weights;  // null when unweighted
  eid_t shift;                   // the global edge index held at targets[0]
};

// A compacted batch: item i is vertices[i], its list at targets[begin[i] .. begin[i + 1]).
struct CompactedEdges {
  const vid_t* vertices;
  const eid_t* begin;
  const vid_t* targets;
  const std::uint32_t* weights;
};

// Vertex v's message for this step, taken by one thread: its value (monotone programs), or its
// pending delta, folded into its value (accumulative ones). False when there is nothing to send.
template <class P>
__device__ __forceinline__ bool take_message(const P& program, const ProgramState<P>& s, vid_t v,
                                             eid_t degree, Message<P>& message) {
  using Value = typename P::Value;
  if constexpr (P::kind == ProgramKind::monotone) {
    message = make_message<P>(atomic_load(s.values + v), v);
    return degree > 0;
  } else {
    const Value delta = atomic_exchange(s.deltas + v, Value{0});
    if (delta == Value{0}) return false;
    atomic_add(s.values + v, delta);
    if (degree == 0) return false;
    message = make_message<P>(program.message(delta, degree), v);
    return true;
  }
}

// Appends a list of at least kHeavyDegree edges to a heavy queue (one thread); its edges are
// counted where the queue is drained.
template <class Msg>
__device__ __forceinline__ void queue_item(const HeavyQueue<Msg>& q, const vid_t* targets,
                                           const std::uint32_t* weights, eid_t degree, Msg message,
                                           const std::uint8_t* list, eid_t first_edge) {
  const unsigned long long chunks = (degree + kHeavyChunk - 1) / kHeavyChunk;
  const unsigned long long at = atomicAdd(q.counter, (1ull << kChunkBits) + chunks);
  q.items[at >> kChunkBits] = {targets,    list,   weights, degree, at & ((1ull << kChunkBits) - 1),
                               first_edge, message};
}

// The item that global chunk g of a queue belongs to: the one whose first_chunk is the largest
// not above g.
template <class Msg>
__device__ __forceinline__ HeavyItem<Msg> item_of_chunk(const HeavyQueue<Msg>& q,
                                                        std::uint64_t items, std::uint64_t g) {
  std::uint64_t lo = 0, hi = items;
  while (hi - lo > 1) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (q.items[mid].first_chunk <= g) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return q.items[lo];
}

// Hands a list of at least kHeavyDegree edges to heavy_kernel (one thread).
template <class P>
__device__ __forceinline__ void queue_heavy(const ProgramState<P>& s, const vid_t* targets,
                                            const std::uint32_t* weights, eid_t degree,
                                            Message<P> message, const std::uint8_t* list = nullptr,
                                            eid_t first_edge = 0) {
  queue_item(s.heavy, targets, weights, degree, message, list, first_edge);
}

template <class P>
__device__ __forceinline__ typename P::Value* relax_target(const ProgramState<P>& s) {
  return P::kind == ProgramKind::monotone ? s.values : s.deltas;
}

// A message handed from lane `from` to the whole warp.
template <class Value>
__device__ __forceinline__ Value shfl_message(Value message, int from) {
  return __shfl_sync(kFullMask, message, from);
}
template <class Value>
__device__ __forceinline__ SourcedMessage<Value> shfl_message(SourcedMessage<Value> message,
                                                              int from) {
  return {__shfl_sync(kFullMask, message.value, from),
          __shfl_sync(kFullMask, message.source, from)};
}

// Vertex v's message, taken by lane 0 and handed to the whole warp; false when there is none.
template <class P>
__device__ __forceinline__ bool warp_message(const P& program, const ProgramState<P>& s, vid_t v,
                                             eid_t degree, unsigned lane, Message<P>& message) {
  int go = 0;
  if (lane == 0) go = take_message(program, s, v, degree, message) ? 1 : 0;
  if (__shfl_sync(kFullMask, go, 0) == 0) return false;
  message = shfl_message(message, 0);
  return true;
}

// Runs vertex v's program step with the whole warp: lane 0 takes the message, then the warp
// relaxes every out-edge. Returns the edges processed (valid in lane 0).
template <class P>
__device__ __forceinline__ eid_t process_vertex(const P& program, const ProgramState<P>& s, vid_t v,
                                                const vid_t* targets, const std::uint32_t* weights,
                                                eid_t degree, unsigned lane) {
  Message<P> message{};
  if (!warp_message(program, s, v, degree, lane, message)) return 0;
  if (degree >= kHeavyDegree) {
    if (lane == 0) queue_heavy(s, targets, weights, degree, message);
    return 0;
  }
  relax_range(program, relax_target(s), s.next, message, targets, weights, 0, degree, lane);
  return degree;
}

__device__ __forceinline__ void count_edges(unsigned long long* counter, unsigned long long edges,
                                            unsigned lane) {
  if (lane == 0 && edges != 0) atomicAdd(counter, edges);
}

// Which vertices of a word run, asked by one thread per word: the work bitmap's bits (a task's
// own vertices)...
struct FromWork {
  const std::uint64_t* work;
  __device__ std::uint64_t take(std::uint64_t word, std::uint64_t mask) const {
    return work[word] & mask;
  }
};

// ...or, when a loaded filter task is processed once more, the admitted bits of `next`, taken
// atomically: other streams' kernels may be setting bits in the same word.
template <class Admit>
struct TakeAdmitted {
  std::uint64_t* next;
  Admit admit;
  __device__ std::uint64_t take(std::uint64_t word, std::uint64_t mask) const {
    std::uint64_t wanted = 0;
    for (std::uint64_t rest = atomic_load(next + word) & mask; rest != 0; rest &= rest - 1) {
      const int b = __ffsll(static_cast<long long>(rest)) - 1;
      if (admit(static_cast<vid_t>((word << 6) + static_cast<std::uint64_t>(b))))
        wanted |= 1ull << b;
    }
    if (wanted == 0) return 0;
    return atomicAnd(reinterpret_cast<unsigned long long*>(next + word), ~wanted) & wanted;
  }
};

// A warp per 64-vertex word of the task's ranges; `source` says which of its vertices run.
template <class P, class Source>
__global__ void advance_ranges_kernel(P program, ProgramState<P> s, RangeSet ranges, Source source,
                                      OffsetEdges edges) {
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long processed = 0;
  for (std::uint64_t i = global_warp(); i < ranges.words(); i += warp_count()) {
    std::uint64_t word = 0, mask = 0;
    eid_t shift = 0;
    ranges.item(i, word, mask, shift);
    std::uint64_t bits = lane == 0 ? source.take(word, mask) : 0;
    for (bits = __shfl_sync(kFullMask, bits, 0); bits != 0; bits &= bits - 1) {
      const auto v = static_cast<vid_t>(
          (word << 6) + static_cast<std::uint64_t>(__ffsll(static_cast<long long>(bits)) - 1));
      const eid_t begin = edges.offsets[v] - edges.shift - shift;
      processed += process_vertex(program, s, v, edges.targets + begin,
                                  edges.weights == nullptr ? nullptr : edges.weights + begin,
                                  edges.offsets[v + 1] - edges.offsets[v], lane);
    }
  }
  count_edges(s.edges_processed, processed, lane);
}

// A warp per vertex of a compacted batch.
template <class P>
__global__ void advance_compacted_kernel(P program, ProgramState<P> s, CompactedEdges batch,
                                         std::uint64_t count) {
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long processed = 0;
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const eid_t begin = batch.begin[i];
    processed += process_vertex(program, s, batch.vertices[i], batch.targets + begin,
                                batch.weights == nullptr ? nullptr : batch.weights + begin,
                                batch.begin[i + 1] - begin, lane);
  }
  count_edges(s.edges_processed, processed, lane);
}

// The warp mapping as a Mapping beside the block kernels' (advance_tiled.cuh), so that one
// dispatch picks every mapping: a warp per active vertex, run by the two kernels above and, when
// pulling, by the warp gathers (advance_pull.cuh). It spreads no list over a block, so it needs
// neither claim nor expand; a launch tells it from the others with kWarpMapped.
struct WarpPerVertex {};
template <class Mapping>
inline constexpr bool kWarpMapped = std::is_same_v<Mapping, WarpPerVertex>;

// What a warp, or a tile of kLanes of its lanes, reads a compressed list through: the lists'
// lines, and the packed weights' lines when there are packed weights.
template <unsigned kLanes = kWarp>
struct ListWindows {
  LineWindow<kLanes> lists, weights;
  bool eager;  // decode_block's: every line a block may span held at once
  __device__ ListWindows(unsigned lane, const CompressedEdges& edges, bool all_lines = false)
      : lists(lane, edges.lists_end), weights(lane, edges.packed.end), eager(all_lines) {}
};

// Edges [begin, end) of a compressed list (a multiple of codec::kBlock apart, or end at the
// degree; for a tile, end - begin at most kLanes), the block holding edge `begin` starting at
// address `at`, a block at a time: lane i gets the block's i-th target and its weight, and every
// lane calls f(target, weight, i < n).
// Weights: `weights`, the list's raw ones, or the packed ones from edge `first_edge` on
// (`packed`), or none; a block's packed weights are held before its targets are decoded, so that
// the two loads cross the link together. f returns true (the same on every lane) to stop; returns
// the edges of the blocks walked.
template <unsigned kLanes, class F>
__device__ __forceinline__ eid_t for_each_block(ListWindows<kLanes>& windows,
                                                const PackedWeights& packed, std::uintptr_t at,
                                                eid_t begin, eid_t end,
                                                const std::uint32_t* weights, eid_t first_edge,
                                                unsigned lane, F&& f) {
  for (eid_t e = begin; e < end; e += codec::kBlock) {
    const auto n =
        static_cast<std::uint32_t>(end - e < codec::kBlock ? end - e : eid_t{codec::kBlock});
    if (packed.bits != nullptr)
      hold_packed_weights(windows.weights, packed.bits, first_edge + e, n, packed.width);
    std::uint64_t bytes = 0;
    const vid_t t = decode_block(windows.lists, at, n, lane, bytes, windows.eager);
    std::uint32_t weight = 0;
    if (packed.bits != nullptr) {
      weight = packed_weight_lane(windows.weights, packed.bits, first_edge + e, n, packed.width,
                                  packed.base, lane);
    } else if (weights != nullptr && lane < n) {
      weight = weights[e + lane];
    }
    if (f(t, weight, lane < n)) return e + n - begin;
    at += bytes;
  }
  return end - begin;
}

template <class P, class Next, unsigned kLanes>
__device__ __forceinline__ void relax_blocks(const P& program, typename P::Value* dst, Next next,
                                             Message<P> message, ListWindows<kLanes>& windows,
                                             const PackedWeights& packed, std::uintptr_t at,
                                             eid_t begin, eid_t end, const std::uint32_t* weights,
                                             eid_t first_edge, unsigned lane) {
  for_each_block(windows, packed, at, begin, end, weights, first_edge, lane,
                 [&](vid_t t, std::uint32_t weight, bool mine) {
                   if (mine && relax_edge_to(program, message, weight, dst, t)) mark(next, t);
                   return false;
                 });
}

// Where chunk c (kHeavyChunk edges) of a compressed list of `degree` edges at `list` starts, in
// bytes from the list's start, through its table.
__device__ __forceinline__ std::uint64_t chunk_offset(const std::uint8_t* list, eid_t degree,
                                                      eid_t c) {
  return c == 0 ? codec::table_bytes(degree) : codec::read_bits(list + 4 * (c - 1), 0, 32);
}

// Where chunk c of a queued compressed list starts: the address of its first block, and its edges
// [begin, end).
template <class Msg>
__device__ __forceinline__ std::uintptr_t compressed_chunk(const HeavyItem<Msg>& item, eid_t c,
                                                           eid_t& begin, eid_t& end) {
  begin = c * kHeavyChunk;
  end = begin + kHeavyChunk < item.degree ? begin + kHeavyChunk : item.degree;
  return reinterpret_cast<std::uintptr_t>(item.list) + chunk_offset(item.list, item.degree, c);
}

// Chunk c of a queued compressed list, relaxed.
template <class P>
__device__ __forceinline__ void relax_compressed_chunk(const P& program, typename P::Value* dst,
                                                       std::uint64_t* next,
                                                       const HeavyItem<Message<P>>& item,
                                                       const CompressedEdges& lists, eid_t c,
                                                       unsigned lane) {
  eid_t begin = 0, end = 0;
  const std::uintptr_t at = compressed_chunk(item, c, begin, end);
  ListWindows<> windows(lane, lists);
  relax_blocks(program, dst, next, item.message, windows, lists.packed, at, begin, end,
               item.weights, item.first_edge, lane);
}

// Compressed lists read in place (zero-copy, or the edge cache): a warp per 64-vertex word of the
// task's ranges, as advance_ranges_kernel, each active vertex's list decoded block by block from
// the lines the warp holds (line_window.cuh); a list of kHeavyDegree edges or more goes to
// heavy_kernel, a chunk per warp. Zero-copy tasks always take it, and cached lists under the warp
// mapping; advance_compressed_tiled.cuh has the cache's thread per short list.
template <class P, class Source>
__global__ void advance_compressed_kernel(P program, ProgramState<P> s, RangeSet ranges,
                                          Source source, CompressedEdges edges) {
  const unsigned lane = threadIdx.x % kWarp;
  ListWindows<> windows(lane, edges);
  typename P::Value* dst = relax_target(s);
  unsigned long long processed = 0;
  for (std::uint64_t i = global_warp(); i < ranges.words(); i += warp_count()) {
    std::uint64_t word = 0, mask = 0;
    eid_t shift = 0, list_shift = 0;
    ranges.item(i, word, mask, shift, list_shift);
    std::uint64_t bits = lane == 0 ? source.take(word, mask) : 0;
    for (bits = __shfl_sync(kFullMask, bits, 0); bits != 0; bits &= bits - 1) {
      const auto v = static_cast<vid_t>(
          (word << 6) + static_cast<std::uint64_t>(__ffsll(static_cast<long long>(bits)) - 1));
      const eid_t degree = edges.offsets[v + 1] - edges.offsets[v];
      Message<P> message{};
      if (!warp_message(program, s, v, degree, lane, message)) continue;
      const std::uint8_t* list = edges.lists + (edges.coffsets[v] - list_shift);
      const eid_t first_edge = edges.offsets[v] - shift;
      const std::uint32_t* weights =
          edges.weights == nullptr ? nullptr : edges.weights + first_edge;
      if (degree >= kHeavyDegree) {
        if (lane == 0) queue_heavy(s, nullptr, weights, degree, message, list, first_edge);
        continue;
      }
      relax_blocks(program, dst, s.next, message, windows, edges.packed,
                   reinterpret_cast<std::uintptr_t>(list) + codec::table_bytes(degree), 0, degree,
                   weights, first_edge, lane);
      processed += degree;
    }
  }
  count_edges(s.edges_processed, processed, lane);
}

// Every queued heavy list, spread over the grid: global chunk g belongs to the item whose
// first_chunk is the largest not above g. The host empties the queue after it.
template <class P>
__global__ void heavy_kernel(P program, ProgramState<P> s) {
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned long long packed = *s.heavy.counter;
  const std::uint64_t items = packed >> kChunkBits;
  const std::uint64_t chunks = packed & ((1ull << kChunkBits) - 1);
  typename P::Value* dst = relax_target(s);
  unsigned long long processed = 0;
  for (std::uint64_t g = global_warp(); g < chunks; g += warp_count()) {
    const HeavyItem<Message<P>> item = item_of_chunk(s.heavy, items, g);
    const eid_t begin = (g - item.first_chunk) * kHeavyChunk;
    const eid_t end = begin + kHeavyChunk < item.degree ? begin + kHeavyChunk : item.degree;
    if (item.list != nullptr) {
      relax_compressed_chunk(program, dst, s.next, item, s.heavy.lists, begin / kHeavyChunk, lane);
    } else {
      relax_range(program, dst, s.next, item.message, item.targets, item.weights, begin, end, lane);
    }
    processed += end - begin;
  }
  count_edges(s.edges_processed, processed, lane);
}

// Initial values, deltas and frontier, computed on the GPU: a warp per 64-vertex word, a lane
// per vertex of each half, so that the values are written coalesced.
template <class P>
__global__ void init_kernel(P program, typename P::Value* values, typename P::Value* deltas,
                            std::uint64_t* current, vid_t n) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t words = (std::uint64_t{n} + 63) / 64;
  for (std::uint64_t w = global_warp(); w < words; w += warp_count()) {
    std::uint64_t bits = 0;
    for (unsigned half = 0; half < 2; ++half) {
      const std::uint64_t at = (w << 6) + 32 * half + lane;
      bool active = false;
      if (at < n) {
        const auto v = static_cast<vid_t>(at);
        values[v] = program.init(v);
        if constexpr (P::kind == ProgramKind::accumulative) deltas[v] = program.init_delta(v);
        active = program.active_at_start(v);
      }
      bits |= std::uint64_t{__ballot_sync(kFullMask, active)} << (32 * half);
    }
    if (lane == 0) current[w] = bits;
  }
}

// A settling program's step between iterations (SettlingProgram): every vertex is asked
// settle(v, iteration), and those it returns true for join `current`; laid out as init_kernel.
template <class P>
__global__ void settle_kernel(P program, std::uint64_t* current, vid_t n, std::uint32_t iteration) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t words = (std::uint64_t{n} + 63) / 64;
  for (std::uint64_t w = global_warp(); w < words; w += warp_count()) {
    std::uint64_t bits = 0;
    for (unsigned half = 0; half < 2; ++half) {
      const std::uint64_t at = (w << 6) + 32 * half + lane;
      const bool active = at < n && program.settle(static_cast<vid_t>(at), iteration);
      bits |= std::uint64_t{__ballot_sync(kFullMask, active)} << (32 * half);
    }
    if (lane == 0 && bits != 0) current[w] |= bits;
  }
}

}  // namespace ooc::cuda
