#pragma once
// Device-side frontier bitmaps: one bit per vertex in 64-bit words, set with atomicOr, and the
// warp walk over their set bits that the survey kernels share.
#include <cstdint>

#include "ooc/core/types.hpp"
#include "ooc/kernels/cuda/warp.cuh"

namespace ooc::cuda {

__device__ __forceinline__ bool bit_test(const std::uint64_t* words, vid_t v) {
  return (words[v >> 6] >> (v & 63)) & 1u;
}

// True when this call set the bit.
__device__ __forceinline__ bool bit_set(std::uint64_t* words, vid_t v) {
  const unsigned long long mask = 1ull << (v & 63);
  return (atomicOr(reinterpret_cast<unsigned long long*>(words + (v >> 6)), mask) & mask) == 0;
}

// The bits of word w that fall in [first, last).
__device__ __forceinline__ std::uint64_t range_mask(std::uint64_t w, vid_t first, vid_t last) {
  std::uint64_t mask = ~0ull;
  const std::uint64_t lo = w << 6;
  if (first > lo) mask &= ~0ull << (first - lo);
  if (static_cast<std::uint64_t>(last) < lo + 64) mask &= (1ull << (last - lo)) - 1;
  return mask;
}

// The last index r of [lo, hi) with sorted[r] <= x, given sorted[lo] <= x.
template <class T, class X>
__device__ __forceinline__ std::uint32_t last_at_most(const T* sorted, std::uint32_t lo,
                                                      std::uint32_t hi, X x) {
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] <= x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Vertex ranges of one task (neighbouring partitions merged), walked word by word: item i is a
// word of one range. prefix[r] counts the words before range r; the counts run on across all
// tasks of an iteration, so a task's view starts at prefix[0], not at 0. shift, when not null,
// says where each range's edges sit in the task's edge array: the edge cache keeps partitions
// that are not neighbours in the graph next to each other. list_shift does the same for the
// ranges' compressed lists (byte offsets), when the cache holds those.
struct RangeSet {
  const vid_t* first;  // per range
  const vid_t* last;
  const std::uint64_t* prefix;  // ranges + 1 entries
  const eid_t* shift;           // per range, subtracted from the global edge index; or null
  const eid_t* list_shift;      // per range, subtracted from the compressed offsets; or null
  std::uint32_t ranges;

  __device__ std::uint64_t words() const { return prefix[ranges] - prefix[0]; }
  // The word index, bit mask and edge shift of item i.
  __device__ void item(std::uint64_t i, std::uint64_t& word, std::uint64_t& mask,
                       eid_t& edge_shift) const {
    eid_t unused = 0;
    item(i, word, mask, edge_shift, unused);
  }
  // The same, and the compressed lists' shift.
  __device__ void item(std::uint64_t i, std::uint64_t& word, std::uint64_t& mask, eid_t& edge_shift,
                       eid_t& lists_shift) const {
    const std::uint64_t at = prefix[0] + i;
    const std::uint32_t lo = last_at_most(prefix, 0, ranges, at);  // prefix[lo] <= at < next
    word = (first[lo] >> 6) + (at - prefix[lo]);
    mask = range_mask(word, first[lo], last[lo]);
    edge_shift = shift == nullptr ? 0 : shift[lo];
    lists_shift = list_shift == nullptr ? 0 : list_shift[lo];
  }
};

// Word w's bits below the vertex count.
__device__ __forceinline__ std::uint64_t live_bits(const std::uint64_t* words, std::uint64_t w,
                                                   vid_t n) {
  return words[w] & range_mask(w, 0, n);
}

// Each warp of the grid takes 32 words at a time, from its own first word on and a grid's worth
// apart, so the words a warp sees only grow. f(chunk, lane) runs on every lane of the warp for
// each chunk: lane l's word is chunk + l. Needs blocks of whole warps.
template <class F>
__device__ __forceinline__ void for_each_chunk(vid_t n, F&& f) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t words = (std::uint64_t{n} + 63) / 64;
  for (std::uint64_t chunk = grid_thread() - lane; chunk < words; chunk += grid_threads())
    f(chunk, lane);
}

// The warp walks the words of a chunk that have set bits (`mine`: the lane's word), in order,
// half a word at a time: f(w, fresh, v, on) runs on every lane, where v is the lane's vertex of
// the half, `on` says whether its bit is set, and `fresh` that the half is the first of word w to
// be walked. A lane's vertices are 32 apart, so the warp reads its vertices' data coalesced, where
// a thread per word would read 64 scattered ones.
template <class F>
__device__ __forceinline__ void walk_chunk(std::uint64_t chunk, std::uint64_t mine, F&& f) {
  const unsigned lane = threadIdx.x % kWarp;
  for (unsigned busy = __ballot_sync(kFullMask, mine != 0); busy != 0; busy &= busy - 1) {
    const int from = __ffs(static_cast<int>(busy)) - 1;
    const std::uint64_t bits = __shfl_sync(kFullMask, mine, from);
    const std::uint64_t w = chunk + static_cast<std::uint64_t>(from);
    for (unsigned half = 0; half < 2; ++half) {
      const auto h = static_cast<std::uint32_t>(bits >> (32 * half));
      if (h == 0) continue;
      const bool fresh = half == 0 || static_cast<std::uint32_t>(bits) == 0;
      f(w, fresh, static_cast<vid_t>((w << 6) + 32 * half + lane), ((h >> lane) & 1u) != 0);
    }
  }
}

// walk_chunk over every chunk of `words` below n.
template <class F>
__device__ __forceinline__ void walk_bits(const std::uint64_t* words, vid_t n, F&& f) {
  for_each_chunk(n, [&](std::uint64_t chunk, unsigned lane) {
    const std::uint64_t w = chunk + lane;
    walk_chunk(chunk, w < (std::uint64_t{n} + 63) / 64 ? live_bits(words, w, n) : 0, f);
  });
}

}  // namespace ooc::cuda
