#pragma once
// What the builder does to one adjacency list once its edges are gathered, shared by the
// in-memory build (builder.cpp) and the bounded one (bounded_build.cpp) so that both give the same
// bytes: sort by (target, weight), drop repeated targets keeping the smallest weight, and draw
// random weights from the edge's endpoints.
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ooc/core/types.hpp"
#include "ooc/partitioner/builder.hpp"
#include "random.hpp"

namespace ooc::detail {

// Which edges the build keeps and how: both directions of every edge when symmetrising.
struct EdgePlan {
  bool both_directions;
  bool keep_self_loops;
  bool keep_input_weights;
};

inline EdgePlan edge_plan(const BuildOptions& options, bool symmetric_input, bool input_weighted) {
  return {options.undirected || symmetric_input, !options.remove_self_loops,
          options.weights.kind == WeightSpec::Kind::from_input && input_weighted};
}

inline bool kept(const EdgePlan& plan, vid_t u, vid_t v) {
  return plan.keep_self_loops || u != v;
}

inline constexpr std::size_t kParallelSortThreshold = std::size_t{1} << 20;

// f32 weights are ordered through a key that sorts like the float value (negative ones too).
inline std::uint32_t weight_key(std::uint32_t bits, bool is_float) {
  if (!is_float) return bits;
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}
inline std::uint32_t weight_from_key(std::uint32_t key, bool is_float) {
  if (!is_float) return key;
  return (key & 0x80000000u) != 0 ? key & 0x7fffffffu : ~key;
}

// Sorts one adjacency list by (target, weight) and drops repeated targets when asked; returns
// the new length. `weights` may be null.
inline eid_t sort_and_dedupe_list(vid_t* targets, std::uint32_t* weights, eid_t length, bool dedupe,
                                  bool is_float, std::vector<std::uint64_t>& scratch) {
  const auto count = static_cast<std::size_t>(length);
  if (weights == nullptr) {
    if (count >= kParallelSortThreshold) {
      tbb::parallel_sort(targets, targets + count);
    } else {
      std::sort(targets, targets + count);
    }
    return dedupe ? static_cast<eid_t>(std::unique(targets, targets + count) - targets) : length;
  }
  scratch.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    scratch[i] = std::uint64_t{targets[i]} << 32 | weight_key(weights[i], is_float);
  }
  if (count >= kParallelSortThreshold) {
    tbb::parallel_sort(scratch.begin(), scratch.end());
  } else {
    std::sort(scratch.begin(), scratch.end());
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto target = static_cast<vid_t>(scratch[i] >> 32);
    if (dedupe && out > 0 && targets[out - 1] == target) continue;  // smallest weight kept
    targets[out] = target;
    weights[out] = weight_from_key(static_cast<std::uint32_t>(scratch[i]), is_float);
    ++out;
  }
  return out;
}

// A random integer weight for the edge (u, v), the same for (v, u).
inline std::uint32_t random_weight(const WeightSpec& spec, vid_t u, vid_t v) {
  const std::uint64_t range = std::uint64_t{spec.high} - spec.low + 1;
  const std::uint64_t key = std::uint64_t{std::min(u, v)} << 32 | std::max(u, v);
  return spec.low + static_cast<std::uint32_t>(hash2(spec.seed, key) % range);
}

}  // namespace ooc::detail
