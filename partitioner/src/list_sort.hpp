#pragma once
// Sorting one adjacency list by target, its weights moving with their targets. Stable: equal
// targets (kept duplicates) keep their order, which the builder made (target, weight) order.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "ooc/core/types.hpp"

namespace ooc::detail {

// Lists at least this long take a radix sort: 3 passes over them, against introsort's log2 of
// their length. Kronecker graphs' hubs have lists of 10^5 targets and more, and sorting the
// relabelled lists was most of SAGE's setup; on them the radix sort takes about half std::sort's
// time (docs/performance-log.md, "Figures moved from code comments").
inline constexpr eid_t kRadixFrom = 512;

// Stable LSD radix sort of `data` by the 32-bit key(x), 11 bits a pass; `buffer` is scratch.
template <class T, class Key>
void radix_sort(T* data, eid_t n, std::vector<T>& buffer, Key key) {
  constexpr unsigned kBits = 11, kBuckets = 1u << kBits;
  buffer.resize(n);
  T* from = data;
  T* to = buffer.data();
  for (unsigned shift = 0; shift < 32; shift += kBits) {
    std::array<eid_t, kBuckets> start{};
    for (eid_t i = 0; i < n; ++i)
      ++start[(key(from[i]) >> shift) & (kBuckets - 1)];
    eid_t sum = 0;
    for (eid_t& s : start)
      sum += std::exchange(s, sum);
    for (eid_t i = 0; i < n; ++i)
      to[start[(key(from[i]) >> shift) & (kBuckets - 1)]++] = from[i];
    std::swap(from, to);
  }
  if (from != data) std::copy_n(from, n, data);  // an odd number of passes ends in the buffer
}

// Buffers that sort_list reuses from one list to the next.
struct ListSortScratch {
  std::vector<std::uint64_t> keys, keys_buffer;
  std::vector<vid_t> targets_buffer;
};

// `weights` may be null. A weighted list is sorted as (target << 32 | weight) keys by their
// target half: one integer sort, not a sort of pairs.
inline void sort_list(vid_t* targets, std::uint32_t* weights, eid_t degree,
                      ListSortScratch& scratch) {
  if (weights == nullptr) {
    if (degree < kRadixFrom) {
      std::sort(targets, targets + degree);  // equal targets are equal: stable enough
    } else {
      radix_sort(targets, degree, scratch.targets_buffer, [](vid_t t) { return t; });
    }
    return;
  }
  std::vector<std::uint64_t>& keys = scratch.keys;
  keys.resize(degree);
  for (eid_t i = 0; i < degree; ++i)
    keys[i] = std::uint64_t{targets[i]} << 32 | weights[i];
  const auto target = [](std::uint64_t k) { return static_cast<std::uint32_t>(k >> 32); };
  if (degree < kRadixFrom) {
    std::stable_sort(keys.begin(), keys.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return target(a) < target(b); });
  } else {
    radix_sort(keys.data(), degree, scratch.keys_buffer, target);
  }
  for (eid_t i = 0; i < degree; ++i) {
    targets[i] = target(keys[i]);
    weights[i] = static_cast<std::uint32_t>(keys[i]);
  }
}

}  // namespace ooc::detail
