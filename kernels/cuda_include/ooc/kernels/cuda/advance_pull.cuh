#pragma once
// The pull direction's gather (GraphCage, §3's pull over in-edges; Beamer et al., SC'12 §III, for
// BFS's bottom-up step): every vertex of a task's gathering set reads its own list — on a
// symmetric graph, its in-neighbours — reduces what they offer in registers, and combines the
// result into its value with one atomic, where a pushed edge costs an atomic on a random target.
// The rule (the engine's PullRule, pull.hpp) says what a source offers, how offers combine, when
// a vertex may stop reading (BFS: once it holds the floor, at its first frontier neighbour), and
// how the result lands.
//
// The lists are read wherever the task's engine put them, as the push kernels read them
// (advance.cuh): staged, compacted, in device memory, or in pinned host memory through the
// mapping, with EMOGI's aligned start. Two mappings, as for push:
//   warp   a warp per gathering vertex, 32 edges (one 128-byte line) a step. Zero-copy tasks
//          always take it: it counts the lines it reads, since a vertex that stops early reads
//          fewer than the survey priced.
//   tiled  a thread per vertex (SAGE's tiles, advance_tiled.cuh): lists of 32+ edges are taken by
//          the whole warp in turn; shorter ones are concatenated by a prefix sum and gathered
//          into per-vertex slots in shared memory. No block tiles: a gather ends in one
//          reduction, and the lists long enough for a block go to the heavy queue from 4096 on.
// Lists of kHeavyDegree+ edges are queued and spread over the whole grid in 1024-edge chunks,
// each chunk reduced and combined on its own (pull_heavy_kernel).
//
// Cache blocking (GraphCage §3.1, TOCAB, pull style), in GPU memory: group_lists_kernel
// (group_lists.cuh) groups each list once by which of B equal ranges of vertex ids its
// neighbours fall in, and records where each group begins. An iteration that pulls then gathers
// B times, range by range (ListCut narrows each list to its group), so the values a gather reads
// lie in one range, which fits the L2. Where GraphCage keeps a compact blocked CSR per subgraph
// with local ids and partial sums reduced at the end, the lists here stay in place, every
// gathering vertex looks up its group's bounds (8 coalesced bytes a range) in every range, even
// where its group is empty (the visits TOCAB's local ids avoid), and each range's gather lands
// on its own.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/advance_tiled.cuh"
#include "ooc/kernels/cuda/group_lists.cuh"
#include "ooc/kernels/requests.hpp"

namespace ooc::cuda {

// What the gather kernels share: the next frontier, the edges read and (zero-copy tasks) the
// 128-byte lines read, and the queue of long lists, whose items carry the gathering vertex.
struct PullState {
  std::uint64_t* next;
  unsigned long long* edges_processed;
  unsigned long long* lines;  // null: not counted
  HeavyQueue<vid_t> heavy;
};

// The warp's lanes' values combined; every lane gets the result.
template <class Rule, class Value>
__device__ __forceinline__ Value warp_combine(Value x) {
  return warp_reduce(x, [](Value a, Value b) { return Rule::combine(a, b); });
}

// What vertex v starts from, as lane 0 reads it (every lane must start from the same).
template <class Rule>
__device__ __forceinline__ auto warp_start(const Rule& rule, vid_t v) {
  return __shfl_sync(kFullMask, rule.start(v), 0);
}

// Lane 0 lands what vertex v gathered; `lines` are the lines read for it.
template <class Rule, class Value>
__device__ __forceinline__ void land(const Rule& rule, const PullState& s, vid_t v, Value gathered,
                                     Value started, unsigned long long lines, unsigned lane) {
  if (lane != 0) return;
  if (rule.apply(v, gathered, started)) bit_set(s.next, v);
  if (s.lines != nullptr && lines != 0) atomicAdd(s.lines, lines);
}

// Vertex v's list targets[0, degree) (weights beside, or null) gathered by the whole warp, 32
// edges a step from the 128-byte line that holds targets[0]. Returns the edges the warp read: all
// of them, or up to the step where v reached the floor.
template <class Rule>
__device__ __forceinline__ eid_t pull_list(const Rule& rule, const PullState& s, vid_t v,
                                           const vid_t* targets, const std::uint32_t* weights,
                                           eid_t degree, unsigned lane) {
  const auto started = warp_start(rule, v);
  auto gathered = started;
  const auto end = static_cast<std::int64_t>(degree);
  std::int64_t step =
      -static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(targets) % 128) / sizeof(vid_t));
  unsigned long long lines = 0;
  while (step < end) {
    const std::int64_t j = step + lane;
    if (j >= 0 && j < end)
      gathered =
          Rule::combine(gathered, rule.offer(targets[j], weights == nullptr ? 0u : weights[j]));
    step += kWarp;
    lines += weights == nullptr ? 1 : 2;  // a line of targets (and one of weights) per step
    if (rule.has_floor) {
      gathered = warp_combine<Rule>(gathered);
      if (rule.done(gathered)) break;
    }
  }
  gathered = warp_combine<Rule>(gathered);
  land(rule, s, v, gathered, started, lines, lane);
  return static_cast<eid_t>(step < end ? step : end);
}

// Hands a list of at least kHeavyDegree edges to pull_heavy_kernel (one thread).
__device__ __forceinline__ void queue_gather(const PullState& s, const vid_t* targets,
                                             const std::uint32_t* weights, eid_t degree, vid_t v,
                                             const std::uint8_t* list = nullptr,
                                             eid_t first_edge = 0) {
  queue_item(s.heavy, targets, weights, degree, v, list, first_edge);
}

// Gathers v's raw list with the warp, or queues it when it is heavy; returns the edges read.
template <class Rule>
__device__ __forceinline__ eid_t pull_vertex(const Rule& rule, const PullState& s, vid_t v,
                                             const vid_t* targets, const std::uint32_t* weights,
                                             eid_t degree, unsigned lane) {
  if (degree >= kHeavyDegree) {
    if (lane == 0) queue_gather(s, targets, weights, degree, v);
    return 0;
  }
  return pull_list(rule, s, v, targets, weights, degree, lane);
}

// A warp per 64-vertex word of the task's ranges; `source` gives the word's gathering vertices.
template <class Rule, class Source>
__global__ void pull_ranges_kernel(Rule rule, PullState s, RangeSet ranges, Source source,
                                   OffsetEdges edges, ListCut cut) {
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
      eid_t begin = edges.offsets[v] - edges.shift - shift;
      eid_t degree = edges.offsets[v + 1] - edges.offsets[v];
      cut.narrow(v, begin, degree);
      processed +=
          pull_vertex(rule, s, v, edges.targets + begin,
                      edges.weights == nullptr ? nullptr : edges.weights + begin, degree, lane);
    }
  }
  count_edges(s.edges_processed, processed, lane);
}

// A warp per vertex of a compacted batch.
template <class Rule>
__global__ void pull_compacted_kernel(Rule rule, PullState s, CompactedEdges batch,
                                      std::uint64_t count) {
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long processed = 0;
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const eid_t begin = batch.begin[i];
    processed += pull_vertex(rule, s, batch.vertices[i], batch.targets + begin,
                             batch.weights == nullptr ? nullptr : batch.weights + begin,
                             batch.begin[i + 1] - begin, lane);
  }
  count_edges(s.edges_processed, processed, lane);
}

// One thread's gathering vertex and its list (degree 0: none, or nothing left).
struct Gathering {
  const vid_t* targets;
  const std::uint32_t* weights;
  eid_t degree;
  vid_t vertex;
};

// Every thread of the block calls it, with its vertex or with degree 0.
template <class Rule>
__device__ __forceinline__ void pull_tiled(const Rule& rule, const PullState& s, Gathering mine,
                                           unsigned long long& processed) {
  using Value = decltype(rule.start(vid_t{0}));
  namespace cg = cooperative_groups;
  const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
  if (mine.degree >= kHeavyDegree) {
    queue_gather(s, mine.targets, mine.weights, mine.degree, mine.vertex);
    mine.degree = 0;
  }
  // Lists of a warp or more: the whole warp gathers each in turn.
  for (unsigned want = warp.ballot(mine.degree >= kWarp); want != 0;
       want = warp.ballot(mine.degree >= kWarp)) {
    const auto leader = static_cast<unsigned>(__ffs(static_cast<int>(want)) - 1);
    const eid_t read =
        pull_list(rule, s, warp.shfl(mine.vertex, leader), shfl_pointer(warp, mine.targets, leader),
                  shfl_pointer(warp, mine.weights, leader), warp.shfl(mine.degree, leader),
                  warp.thread_rank());
    if (warp.thread_rank() == leader) {
      processed += read;
      mine.degree = 0;
    }
  }
  // Shorter lists, concatenated by a prefix sum: lane i takes the i-th edge of the run and
  // combines its offer into the owner's slot.
  __shared__ Value slots[kTileThreads];
  const Value started = mine.degree > 0 ? rule.start(mine.vertex) : Value{};
  slots[threadIdx.x] = started;
  warp.sync();
  const auto count = static_cast<unsigned>(mine.degree);  // < kWarp
  processed += count;
  const unsigned first = cg::exclusive_scan(warp, count);
  const unsigned total = warp.shfl(first + count, kWarp - 1);
  const unsigned base = threadIdx.x - warp.thread_rank();
  for (unsigned round = 0; round < total; round += kWarp) {
    const unsigned at = round + warp.thread_rank();
    unsigned owner = 0;  // the last lane whose part starts at or before `at`
    for (unsigned step = kWarp / 2; step > 0; step /= 2) {
      if (warp.shfl(first, owner + step) <= at) owner += step;
    }
    const vid_t* targets = shfl_pointer(warp, mine.targets, owner);
    const std::uint32_t* weights = shfl_pointer(warp, mine.weights, owner);
    const unsigned offset = at - warp.shfl(first, owner);
    if (at < total) {
      Rule::combine_into(slots + base + owner,
                         rule.offer(targets[offset], weights == nullptr ? 0u : weights[offset]));
    }
  }
  warp.sync();
  if (count > 0 && rule.apply(mine.vertex, slots[threadIdx.x], started))
    bit_set(s.next, mine.vertex);
  warp.sync();  // the slots are free again
}

// A block per kWordsPerTileBlock words of the task's ranges, a thread per vertex of those words.
template <class Rule, class Source>
__global__ void __launch_bounds__(kTileThreads)
    pull_ranges_tiled_kernel(Rule rule, PullState s, RangeSet ranges, Source source,
                             OffsetEdges edges, ListCut cut) {
  __shared__ std::uint64_t words[kWordsPerTileBlock], bits[kWordsPerTileBlock];
  __shared__ eid_t shifts[kWordsPerTileBlock];
  const unsigned slot = threadIdx.x / 64, bit = threadIdx.x % 64;
  const std::uint64_t items = ranges.words();
  unsigned long long processed = 0;
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
    Gathering mine{nullptr, nullptr, 0, 0};
    if ((bits[slot] >> bit) & 1u) {
      const auto v = static_cast<vid_t>((words[slot] << 6) + bit);
      eid_t begin = edges.offsets[v] - edges.shift - shifts[slot];
      eid_t degree = edges.offsets[v + 1] - edges.offsets[v];
      cut.narrow(v, begin, degree);
      // A later range's gather: a vertex that an earlier one brought to the floor is done.
      if (cut.lo != nullptr && rule.done(rule.start(v))) degree = 0;
      mine = {edges.targets + begin, edges.weights == nullptr ? nullptr : edges.weights + begin,
              degree, v};
    }
    __syncthreads();  // words, bits and shifts are read: the next round may write them
    pull_tiled(rule, s, mine, processed);
  }
  count_edges_tiled(s.edges_processed, processed);
}

// A thread per vertex of a compacted batch.
template <class Rule>
__global__ void __launch_bounds__(kTileThreads)
    pull_compacted_tiled_kernel(Rule rule, PullState s, CompactedEdges batch, std::uint64_t count) {
  unsigned long long processed = 0;
  for (std::uint64_t first = std::uint64_t{blockIdx.x} * kTileThreads; first < count;
       first += std::uint64_t{gridDim.x} * kTileThreads) {
    const std::uint64_t i = first + threadIdx.x;
    Gathering mine{nullptr, nullptr, 0, 0};
    if (i < count) {
      const eid_t begin = batch.begin[i];
      mine = {batch.targets + begin, batch.weights == nullptr ? nullptr : batch.weights + begin,
              batch.begin[i + 1] - begin, batch.vertices[i]};
    }
    pull_tiled(rule, s, mine, processed);
  }
  count_edges_tiled(s.edges_processed, processed);
}

// Vertex v's compressed list (fewer than kHeavyDegree edges), its blocks from address `at` on,
// gathered by the whole warp from the lines it holds, as advance_compressed_kernel reads them for
// push; a vertex with a floor stops after the block that brings it there. Returns the edges of
// the blocks read.
template <class Rule>
__device__ __forceinline__ eid_t pull_compressed_list(const Rule& rule, const PullState& s,
                                                      ListWindows<>& windows,
                                                      const PackedWeights& packed, vid_t v,
                                                      std::uintptr_t at, eid_t degree,
                                                      const std::uint32_t* weights,
                                                      eid_t first_edge, unsigned lane) {
  const auto started = warp_start(rule, v);
  auto gathered = started;
  const eid_t read = for_each_block(windows, packed, at, 0, degree, weights, first_edge, lane,
                                    [&](vid_t t, std::uint32_t weight, bool mine) {
                                      if (mine)
                                        gathered = Rule::combine(gathered, rule.offer(t, weight));
                                      if (!rule.has_floor) return false;
                                      gathered = warp_combine<Rule>(gathered);
                                      return rule.done(gathered);
                                    });
  land(rule, s, v, warp_combine<Rule>(gathered), started, 0, lane);
  return read;
}

// Compressed lists read in place (zero-copy, or the edge cache under the warp mapping;
// advance_compressed_tiled.cuh has the cache's thread per short list): a warp per 64-vertex word,
// each gathering vertex's list gathered by pull_compressed_list.
template <class Rule, class Source>
__global__ void pull_compressed_kernel(Rule rule, PullState s, RangeSet ranges, Source source,
                                       CompressedEdges edges) {
  const unsigned lane = threadIdx.x % kWarp;
  ListWindows<> windows(lane, edges);
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
      const std::uint8_t* list = edges.lists + (edges.coffsets[v] - list_shift);
      const eid_t first_edge = edges.offsets[v] - shift;
      const std::uint32_t* weights =
          edges.weights == nullptr ? nullptr : edges.weights + first_edge;
      if (degree >= kHeavyDegree) {
        if (lane == 0) queue_gather(s, nullptr, weights, degree, v, list, first_edge);
        continue;
      }
      processed +=
          pull_compressed_list(rule, s, windows, edges.packed, v,
                               reinterpret_cast<std::uintptr_t>(list) + codec::table_bytes(degree),
                               degree, weights, first_edge, lane);
    }
  }
  count_edges(s.edges_processed, processed, lane);
}

// Every queued list, spread over the grid a chunk per warp; each chunk combines what it gathered
// on its own. The host empties the queue after it.
template <class Rule>
__global__ void pull_heavy_kernel(Rule rule, PullState s) {
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned long long packed = *s.heavy.counter;
  const std::uint64_t items = packed >> kChunkBits;
  const std::uint64_t chunks = packed & ((1ull << kChunkBits) - 1);
  unsigned long long processed = 0;
  for (std::uint64_t g = global_warp(); g < chunks; g += warp_count()) {
    const HeavyItem<vid_t> item = item_of_chunk(s.heavy, items, g);
    const vid_t v = item.message;
    const auto started = warp_start(rule, v);
    if (rule.done(started)) continue;  // another chunk brought v to the floor
    auto gathered = started;
    eid_t begin = (g - item.first_chunk) * kHeavyChunk;
    eid_t end = begin + kHeavyChunk < item.degree ? begin + kHeavyChunk : item.degree;
    unsigned long long lines = 0;
    if (item.list != nullptr) {
      ListWindows<> windows(lane, s.heavy.lists);
      const std::uintptr_t at = compressed_chunk(item, begin / kHeavyChunk, begin, end);
      for_each_block(windows, s.heavy.lists.packed, at, begin, end, item.weights, item.first_edge,
                     lane, [&](vid_t t, std::uint32_t weight, bool mine) {
                       if (mine) gathered = Rule::combine(gathered, rule.offer(t, weight));
                       return false;
                     });
    } else {
      const auto skew = static_cast<std::int64_t>(
          (reinterpret_cast<std::uintptr_t>(item.targets + begin) % 128) / sizeof(vid_t));
      for (std::int64_t j = static_cast<std::int64_t>(begin) + lane - skew;
           j < static_cast<std::int64_t>(end); j += kWarp) {
        if (j < static_cast<std::int64_t>(begin)) continue;
        gathered = Rule::combine(
            gathered, rule.offer(item.targets[j], item.weights == nullptr ? 0u : item.weights[j]));
      }
      lines = lines_spanned(reinterpret_cast<std::uintptr_t>(item.targets + begin),
                            (end - begin) * sizeof(vid_t), 128) *
              (item.weights == nullptr ? 1 : 2);
    }
    land(rule, s, v, warp_combine<Rule>(gathered), started, lines, lane);
    processed += end - begin;
  }
  count_edges(s.edges_processed, processed, lane);
}

// An accumulative program's frontier sends this iteration's messages before any vertex gathers:
// every vertex of `work` moves its delta into its value and, unless it has no out-edges (then
// the delta is absorbed), its message into `sent`; the others send nothing. A thread per vertex.
template <class P>
__global__ void send_kernel(P program, typename P::Value* values, typename P::Value* deltas,
                            typename P::Value* sent, const std::uint64_t* work,
                            const eid_t* offsets, vid_t n) {
  using Value = typename P::Value;
  for (std::uint64_t at = grid_thread(); at < n; at += grid_threads()) {
    const auto v = static_cast<vid_t>(at);
    Value message{0};
    if (bit_test(work, v)) {
      const Value delta = atomic_exchange(deltas + v, Value{0});
      const eid_t degree = offsets[v + 1] - offsets[v];
      if (delta != Value{0}) {
        atomic_add(values + v, delta);
        if (degree > 0) message = program.message(delta, degree);
      }
    }
    sent[v] = message;
  }
}

}  // namespace ooc::cuda
