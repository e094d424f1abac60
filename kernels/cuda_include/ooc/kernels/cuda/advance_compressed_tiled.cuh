#pragma once
// Compressed lists in the edge cache (GPU memory), a thread per short list: the tiled mapping
// (SAGE, SIGMOD'21 §5.1, as advance_tiled.cuh) for lists the warp kernels otherwise decode a warp
// per vertex (advance_compressed_kernel, pull_compressed_kernel). Each thread of a block takes one
// vertex; a list of kHeavyDegree edges or more goes to the heavy queue, one of more than a block
// (codec::kBlock targets) is decoded by the whole warp in turn, from the lines it holds; a list of
// one block or less — most lists of a Kronecker graph — is decoded by its thread alone, field by
// field, so that a warp walks 32 short lists at once where the warp mapping walks one with most
// lanes idle. Pulling, a thread stops at the floor (BFS: its first frontier neighbour).
//
// The trick that makes it pay only in GPU memory: a thread alone reads two aligned words a field
// (codec::read_bits), which neighbouring threads' lists share in the L1, but which over PCIe
// would be a request per thread; zero-copy tasks therefore keep the warp's whole-line reads.
#include <cooperative_groups.h>

#include "ooc/core/codec.hpp"
#include "ooc/kernels/cuda/advance_pull.cuh"
#include "ooc/kernels/cuda/advance_tiled.cuh"

namespace ooc::cuda {

// One thread's vertex and its compressed list (degree 0: none, or nothing left to do).
struct CompressedList {
  const std::uint8_t* list;      // where the list starts (its chunk table, if any)
  const std::uint32_t* weights;  // its raw weights, or null (none, or packed)
  eid_t degree;
  eid_t first_edge;  // its first edge in the task's edges, where its packed weights start
  vid_t vertex;

  __device__ std::uintptr_t first_block() const {
    return reinterpret_cast<std::uintptr_t>(list) + codec::table_bytes(degree);
  }
};

__device__ __forceinline__ CompressedList compressed_list(const CompressedEdges& edges, vid_t v,
                                                          eid_t shift, eid_t list_shift) {
  const eid_t first_edge = edges.offsets[v] - shift;
  return {edges.lists + (edges.coffsets[v] - list_shift),
          edges.weights == nullptr ? nullptr : edges.weights + first_edge,
          edges.offsets[v + 1] - edges.offsets[v], first_edge, v};
}

__device__ __forceinline__ CompressedList shfl_list(const cg::thread_block_tile<kWarp>& warp,
                                                    const CompressedList& l, unsigned from) {
  return {shfl_pointer(warp, l.list, from), shfl_pointer(warp, l.weights, from),
          warp.shfl(l.degree, from), warp.shfl(l.first_edge, from), warp.shfl(l.vertex, from)};
}

// A list of one block or less (l.degree <= codec::kBlock, so no chunk table), walked by one
// thread: f(target, weight) for its edges in order until f returns true. Returns the edges walked.
template <class F>
__device__ __forceinline__ eid_t for_each_edge_alone(const CompressedList& l,
                                                     const PackedWeights& packed, F&& f) {
  vid_t t = codec::read_bits(l.list, 0, 32);
  const std::uint32_t width = codec::read_bits(l.list, 32, 8);
  for (eid_t i = 0; i < l.degree; ++i) {
    if (i > 0) t += codec::read_bits(l.list, 8 * codec::kHeaderBytes + (i - 1) * width, width);
    std::uint32_t weight = 0;
    if (packed.bits != nullptr) {
      weight = codec::packed_weight(packed.bits, l.first_edge + i, packed.width, packed.base);
    } else if (l.weights != nullptr) {
      weight = l.weights[i];
    }
    if (f(t, weight)) return i + 1;
  }
  return l.degree;
}

// This thread's vertex among the kWordsPerTileBlock words of the task's ranges from item `first`
// on, as `source` takes them: true, with v and its range's shifts, when it has one. Every thread
// of the block calls it; it ends with the shared words read, free for the next call.
template <class Source>
__device__ __forceinline__ bool block_vertex(const RangeSet& ranges, const Source& source,
                                             std::uint64_t first, vid_t& v, eid_t& shift,
                                             eid_t& list_shift) {
  __shared__ std::uint64_t words[kWordsPerTileBlock], bits[kWordsPerTileBlock];
  __shared__ eid_t shifts[kWordsPerTileBlock], list_shifts[kWordsPerTileBlock];
  const unsigned slot = threadIdx.x / 64, bit = threadIdx.x % 64;
  if (bit == 0) {
    std::uint64_t word = 0, mask = 0, taken = 0;
    eid_t s = 0, ls = 0;
    if (first + slot < ranges.words()) {
      ranges.item(first + slot, word, mask, s, ls);
      taken = source.take(word, mask);
    }
    words[slot] = word;
    bits[slot] = taken;
    shifts[slot] = s;
    list_shifts[slot] = ls;
  }
  __syncthreads();
  const bool mine = ((bits[slot] >> bit) & 1u) != 0;
  v = static_cast<vid_t>((words[slot] << 6) + bit);
  shift = shifts[slot];
  list_shift = list_shifts[slot];
  __syncthreads();
  return mine;
}

// Push: a block per kWordsPerTileBlock words of the task's ranges, a thread per active vertex.
// The executor runs it for monotone programs (executor_tasks.cuh says why not accumulative ones).
template <class P, class Source>
__global__ void __launch_bounds__(kTileThreads)
    advance_compressed_tiled_kernel(P program, ProgramState<P> s, RangeSet ranges, Source source,
                                    CompressedEdges edges) {
  const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
  ListWindows<> windows(warp.thread_rank(), edges);
  typename P::Value* dst = relax_target(s);
  unsigned long long processed = 0;
  const std::uint64_t items = ranges.words();
  for (std::uint64_t first = std::uint64_t{blockIdx.x} * kWordsPerTileBlock; first < items;
       first += std::uint64_t{gridDim.x} * kWordsPerTileBlock) {
    CompressedList mine{nullptr, nullptr, 0, 0, 0};
    Message<P> message{};
    vid_t v = 0;
    eid_t shift = 0, list_shift = 0;
    if (block_vertex(ranges, source, first, v, shift, list_shift)) {
      mine = compressed_list(edges, v, shift, list_shift);
      if (!take_message(program, s, v, mine.degree, message)) mine.degree = 0;
    }
    if (mine.degree >= kHeavyDegree) {
      queue_heavy(s, nullptr, mine.weights, mine.degree, message, mine.list, mine.first_edge);
      mine.degree = 0;
    }
    for (unsigned want = warp.ballot(mine.degree > codec::kBlock); want != 0;
         want = warp.ballot(mine.degree > codec::kBlock)) {
      const auto leader = static_cast<unsigned>(__ffs(static_cast<int>(want)) - 1);
      const CompressedList led = shfl_list(warp, mine, leader);
      const Message<P> led_message = shfl_message(message, static_cast<int>(leader));
      if (warp.thread_rank() == leader) {
        processed += mine.degree;
        mine.degree = 0;
      }
      relax_blocks(program, dst, s.next, led_message, windows, edges.packed, led.first_block(), 0,
                   led.degree, led.weights, led.first_edge, warp.thread_rank());
    }
    if (mine.degree > 0) {
      processed += for_each_edge_alone(mine, edges.packed, [&](vid_t t, std::uint32_t weight) {
        if (relax_edge_to(program, message, weight, dst, t)) bit_set(s.next, t);
        return false;
      });
    }
  }
  count_edges_tiled(s.edges_processed, processed);
}

// Pull: the same over the task's gathering vertices.
template <class Rule, class Source>
__global__ void __launch_bounds__(kTileThreads)
    pull_compressed_tiled_kernel(Rule rule, PullState s, RangeSet ranges, Source source,
                                 CompressedEdges edges) {
  const auto warp = cg::tiled_partition<kWarp>(cg::this_thread_block());
  ListWindows<> windows(warp.thread_rank(), edges);
  unsigned long long processed = 0;
  const std::uint64_t items = ranges.words();
  for (std::uint64_t first = std::uint64_t{blockIdx.x} * kWordsPerTileBlock; first < items;
       first += std::uint64_t{gridDim.x} * kWordsPerTileBlock) {
    CompressedList mine{nullptr, nullptr, 0, 0, 0};
    vid_t v = 0;
    eid_t shift = 0, list_shift = 0;
    if (block_vertex(ranges, source, first, v, shift, list_shift))
      mine = compressed_list(edges, v, shift, list_shift);
    if (mine.degree >= kHeavyDegree) {
      queue_gather(s, nullptr, mine.weights, mine.degree, mine.vertex, mine.list, mine.first_edge);
      mine.degree = 0;
    }
    for (unsigned want = warp.ballot(mine.degree > codec::kBlock); want != 0;
         want = warp.ballot(mine.degree > codec::kBlock)) {
      const auto leader = static_cast<unsigned>(__ffs(static_cast<int>(want)) - 1);
      const CompressedList led = shfl_list(warp, mine, leader);
      const eid_t read =
          pull_compressed_list(rule, s, windows, edges.packed, led.vertex, led.first_block(),
                               led.degree, led.weights, led.first_edge, warp.thread_rank());
      if (warp.thread_rank() == leader) {
        processed += read;
        mine.degree = 0;
      }
    }
    if (mine.degree > 0) {
      const auto started = rule.start(mine.vertex);
      auto gathered = started;
      processed += for_each_edge_alone(mine, edges.packed, [&](vid_t t, std::uint32_t weight) {
        gathered = Rule::combine(gathered, rule.offer(t, weight));
        return rule.done(gathered);
      });
      if (rule.apply(mine.vertex, gathered, started)) bit_set(s.next, mine.vertex);
    }
  }
  count_edges_tiled(s.edges_processed, processed);
}

}  // namespace ooc::cuda
