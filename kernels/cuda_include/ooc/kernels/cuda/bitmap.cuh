#pragma once
// Device-side frontier bitmaps: one bit per vertex in 64-bit words, set with atomicOr.
#include <cstdint>

#include "ooc/core/types.hpp"

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
    std::uint32_t lo = 0, hi = ranges;  // the range r with prefix[r] <= at < prefix[r + 1]
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (prefix[mid] <= at) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    word = (first[lo] >> 6) + (at - prefix[lo]);
    mask = range_mask(word, first[lo], last[lo]);
    edge_shift = shift == nullptr ? 0 : shift[lo];
    lists_shift = list_shift == nullptr ? 0 : list_shift[lo];
  }
};

}  // namespace ooc::cuda
