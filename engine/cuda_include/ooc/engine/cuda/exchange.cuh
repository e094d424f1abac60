#pragma once
// The kernels of a distributed run's exchange (docs/distributed.md, section 2). A rank keeps a
// replica of every vertex array and an `agreed` copy of the values (monotone programs) or deltas
// (accumulative ones) as they stood after the last exchange; `owned` marks the rank's vertices.
// A warp turns 32 vertices' verdicts into half a bitmap word with one ballot.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "ooc/core/atomics.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/kernels/message.hpp"

namespace ooc::detail {

// current |= next & owned; next = 0 (the single-GPU merge, keeping only the rank's vertices).
void launch_merge_owned(std::uint64_t* current, std::uint64_t* next, const std::uint64_t* owned,
                        std::uint64_t words, unsigned blocks, cudaStream_t stream);
// bits &= owned.
void launch_mask_owned(std::uint64_t* bits, const std::uint64_t* owned, std::uint64_t words,
                       unsigned blocks, cudaStream_t stream);

namespace cuda_exchange {

// Sets `verdict`'s bit of vertex v in `next`, for the owned vertices; every lane of the warp
// calls it for the same iteration (v may be past n, verdict false).
__device__ inline void set_owned_bits(bool verdict, vid_t v, std::uint64_t* next,
                                      const std::uint64_t* owned) {
  const unsigned bits = __ballot_sync(0xffffffffu, verdict);
  if ((threadIdx.x & 31u) == 0 && bits != 0) {
    const std::uint64_t w = v >> 6;
    const std::uint64_t word = std::uint64_t{bits} << (v & 63u);  // v is 32-aligned
    atomicOr(reinterpret_cast<unsigned long long*>(next + w),
             static_cast<unsigned long long>(word & owned[w]));
  }
}

// Monotone programs, dense form, after the all-reduce out of place into `reduced`: an owned vertex
// whose value another rank lowered (or raised, with max) takes it and joins the next frontier.
// The rank's own changes need no mark here: the ones not yet processed are still marked, and a
// loaded filter task processed once more has taken the marks of the ones it processed
// (TakeAdmitted): marking every changed vertex again made their lists run twice.
template <class Value>
__global__ void take_reduced_kernel(Value* values, const Value* reduced, std::uint64_t* next,
                                    const std::uint64_t* owned, vid_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const auto v = static_cast<vid_t>(base + threadIdx.x);
    bool taken = false;
    if (v < n) {
      taken = reduced[v] != values[v];
      if (taken) values[v] = reduced[v];
    }
    set_owned_bits(taken, v, next, owned);
  }
}

// Accumulative programs, before the all-reduce: this rank's change of every delta.
template <class Value>
__global__ void delta_change_kernel(const Value* deltas, const Value* agreed, Value* change,
                                    vid_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n; v += stride)
    change[v] = deltas[v] - agreed[v];
}

// After it: every rank's changes summed onto the agreed deltas; an owned vertex whose delta now
// reaches the program's threshold (relax() of the whole delta onto zero says so) is next. With
// no `change` (the sparse exchange has added the others' changes to the deltas already) the
// deltas are taken as they are.
template <class P, unsigned kThreads>
__global__ void apply_change_kernel(P program, typename P::Value* deltas, typename P::Value* agreed,
                                    const typename P::Value* change, std::uint64_t* next,
                                    const std::uint64_t* owned, vid_t n) {
  using Value = typename P::Value;
  __shared__ Value zero[kThreads];  // relax() is atomic, and atomics need shared or global memory
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const auto v = static_cast<vid_t>(base + threadIdx.x);
    bool active = false;
    if (v < n) {
      const Value d = change != nullptr ? agreed[v] + change[v] : deltas[v];
      deltas[v] = d;
      agreed[v] = d;
      zero[threadIdx.x] = Value{};
      active = activated_by(program, d, &zero[threadIdx.x], v);
    }
    set_owned_bits(active, v, next, owned);
  }
}

// Accumulative programs, before a reduce-scatter in the ranks' layout (OwnedLayout): this rank's
// change of every delta into its slot; a vertex of another rank's goes back to its agreed delta,
// since its change goes to its owner. A block takes a piece at a time.
template <class Value>
__global__ void scatter_change_kernel(Value* deltas, const Value* agreed, Value* slots,
                                      const OwnedLayout::Piece* pieces, std::uint64_t count,
                                      std::uint32_t rank) {
  for (std::uint64_t i = blockIdx.x; i < count; i += gridDim.x) {
    const OwnedLayout::Piece piece = pieces[i];
    for (vid_t k = threadIdx.x; k < piece.count; k += blockDim.x) {
      const vid_t v = piece.first + k;
      slots[piece.slot + k] = deltas[v] - agreed[v];
      if (piece.rank != rank) deltas[v] = agreed[v];
    }
  }
}

// After it: the sums in this rank's block onto its own vertices' agreed deltas; an owned vertex
// whose delta now reaches the program's threshold (as in apply_change_kernel) is next. A piece
// may start anywhere in a bitmap word: a warp's 32 verdicts land in one word or two.
template <class P, unsigned kThreads>
__global__ void take_scattered_kernel(P program, typename P::Value* deltas,
                                      typename P::Value* agreed, const typename P::Value* slots,
                                      const OwnedLayout::Piece* pieces, std::uint64_t count,
                                      std::uint32_t rank, std::uint64_t* next) {
  using Value = typename P::Value;
  __shared__ Value zero[kThreads];  // relax() is atomic, and atomics need shared or global memory
  for (std::uint64_t i = blockIdx.x; i < count; i += gridDim.x) {
    const OwnedLayout::Piece piece = pieces[i];
    if (piece.rank != rank) continue;  // the same for the whole block
    // Whole warps walk the piece, so that every lane takes each ballot.
    const vid_t rounded = (piece.count + 31u) & ~31u;
    for (vid_t k = threadIdx.x; k < rounded; k += blockDim.x) {
      bool active = false;
      if (k < piece.count) {
        const vid_t v = piece.first + k;
        const Value d = agreed[v] + slots[piece.slot + k];
        deltas[v] = d;
        agreed[v] = d;
        zero[threadIdx.x] = Value{};
        active = activated_by(program, d, &zero[threadIdx.x], v);
      }
      const unsigned bits = __ballot_sync(0xffffffffu, active);
      if ((threadIdx.x & 31u) == 0 && bits != 0) {
        const std::uint64_t v0 = piece.first + k;  // lane 0's vertex
        const std::uint64_t shift = v0 & 63u;
        atomicOr(reinterpret_cast<unsigned long long*>(next + (v0 >> 6)),
                 static_cast<unsigned long long>(std::uint64_t{bits} << shift));
        if (shift > 32) {
          atomicOr(reinterpret_cast<unsigned long long*>(next + (v0 >> 6) + 1),
                   static_cast<unsigned long long>(std::uint64_t{bits} >> (64 - shift)));
        }
      }
    }
  }
}

// The sparse exchange's pairs: a vertex in the low word, its value's bits in the high one. A
// rank pads its share of the all-gather with kNoPair.
inline constexpr std::uint64_t kNoPair = ~std::uint64_t{0};

template <class Value>
__device__ inline std::uint64_t pack_pair(vid_t v, Value x) {
  static_assert(sizeof(Value) == 4, "pairs carry 4-byte values");
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (std::uint64_t{bits} << 32) | v;
}

template <class Value>
__device__ inline Value pair_value(std::uint64_t pair) {
  const auto bits = static_cast<std::uint32_t>(pair >> 32);
  Value x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// How many of this rank's values (or deltas) changed since the last exchange, added to `count`
// with one atomic per block (kThreads must be the block's size). Exchange::automatic runs it to
// choose the form; the pairs are written only for a sparse one.
template <class Value, unsigned kThreads>
__global__ void count_changes_kernel(const Value* now, const Value* agreed,
                                     unsigned long long* count, vid_t n) {
  using Reduce = cub::BlockReduce<unsigned, kThreads>;
  __shared__ typename Reduce::TempStorage reduce;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned mine = 0;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n; v += stride)
    mine += now[v] != agreed[v] ? 1u : 0u;
  const unsigned block = Reduce(reduce).Sum(mine);
  if (threadIdx.x == 0 && block != 0) atomicAdd(count, static_cast<unsigned long long>(block));
}

// This rank's changes since the last exchange as pairs: the new value (monotone programs) or the
// delta's change (accumulative ones, kDifference). Counts every change, writes the first
// `capacity`. A block claims its slots with one atomic (kThreads must be the block's size): with
// one per warp, PageRank's 20 M changes of kron-26 made two million atomics on the one counter.
template <class Value, bool kDifference, unsigned kThreads>
__global__ void collect_changes_kernel(const Value* now, const Value* agreed, std::uint64_t* pairs,
                                       std::uint64_t capacity, unsigned long long* count, vid_t n) {
  using Scan = cub::BlockScan<unsigned, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ unsigned long long block_start;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  // `base` is the same for the whole block, so every thread takes each __syncthreads.
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    const bool changed = v < n && now[v] != agreed[v];
    unsigned before = 0, total = 0;
    Scan(scan).ExclusiveSum(changed ? 1u : 0u, before, total);
    if (threadIdx.x == 0)
      block_start = total > 0 ? atomicAdd(count, static_cast<unsigned long long>(total)) : 0;
    __syncthreads();
    const unsigned long long at = block_start + before;
    if (changed && at < capacity) {
      const auto u = static_cast<vid_t>(v);
      pairs[at] = pack_pair(u, kDifference ? static_cast<Value>(now[u] - agreed[u]) : now[u]);
    }
    __syncthreads();  // `scan` and `block_start` are rewritten by the next round
  }
}

// The other ranks' pairs onto this rank's array: min or max of the values, or the sum of the
// deltas' changes. [own_begin, own_end) is this rank's share, already in the array. With `next`
// (monotone programs), an owned vertex whose value another rank's pair moved joins the next
// frontier, as in take_reduced_kernel.
template <class Value, Reduction kOp>
__global__ void apply_pairs_kernel(Value* target, const std::uint64_t* pairs, std::uint64_t total,
                                   std::uint64_t own_begin, std::uint64_t own_end,
                                   std::uint64_t* next, const std::uint64_t* owned) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
       i += stride) {
    if (i >= own_begin && i < own_end) continue;
    const std::uint64_t pair = pairs[i];
    if (pair == kNoPair) continue;
    const auto v = static_cast<vid_t>(pair);
    const Value x = pair_value<Value>(pair);
    bool moved = false;
    if constexpr (kOp == Reduction::sum) {
      atomic_add(&target[v], x);
    } else if constexpr (kOp == Reduction::max) {
      moved = atomic_max(&target[v], x) < x;
    } else {
      moved = atomic_min(&target[v], x) > x;
    }
    if (moved && next != nullptr && ((owned[v >> 6] >> (v & 63u)) & 1u) != 0) {
      atomicOr(reinterpret_cast<unsigned long long*>(next + (v >> 6)),
               static_cast<unsigned long long>(std::uint64_t{1} << (v & 63u)));
    }
  }
}

// Accumulative programs, at the end: a vertex's value is its owner's; the others' become zero so
// that a sum gathers the owners' values everywhere.
template <class Value>
__global__ void keep_owned_kernel(Value* values, const std::uint64_t* owned, vid_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (((owned[v >> 6] >> (v & 63u)) & 1u) == 0) values[v] = Value{};
  }
}

}  // namespace cuda_exchange
}  // namespace ooc::detail
