#pragma once
// The built-in graph programs: BFS, SSSP, CC (label propagation, and Afforest's last pass) and
// PageRank; the batched traversals' two are in batch_programs.hpp. Each follows the program
// contract, which program_contract.hpp states as concepts (GraphProgram) and docs/programs.md
// explains; a program of your own follows it the same way.
#include <cstdint>
#include <limits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/program_contract.hpp"

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

namespace ooc {

OOC_HD OOC_FORCEINLINE float weight_as_float(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  return std::bit_cast<float>(bits);
#endif
}

// Lowers *dst to candidate when it is smaller; true when it did. The plain load first skips the
// atomic for the common case of no improvement.
template <class T>
OOC_HD OOC_FORCEINLINE bool lower_to(T* dst, T candidate) {
  return candidate < atomic_load(dst) && candidate < atomic_min(dst, candidate);
}

// Breadth-first search levels from one source: label-correcting min(level(u) + 1).
struct Bfs {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  static constexpr Value kUnreached = std::numeric_limits<Value>::max();
  vid_t source;

  OOC_HD Value init(vid_t v) const { return v == source ? 0 : kUnreached; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t) const {
    return src == kUnreached ? kUnreached : src + 1;
  }
  OOC_HD Value pull_floor(Value least) const { return offer(least, 0); }
  OOC_HD bool relax(Value src, std::uint32_t w, Value* dst) const {
    return lower_to(dst, offer(src, w));
  }
};

// Single-source shortest paths with non-negative integer weights: Bellman-Ford push with
// atomic_min. Distances saturate rather than wrap.
struct SsspU32 {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  static constexpr Value kUnreached = std::numeric_limits<Value>::max();
  vid_t source;

  OOC_HD Value init(vid_t v) const { return v == source ? 0 : kUnreached; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t weight) const {
    if (src == kUnreached) return kUnreached;
    const std::uint64_t sum = std::uint64_t{src} + weight;
    return sum < kUnreached ? static_cast<Value>(sum) : kUnreached - 1;
  }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    return lower_to(dst, offer(src, weight));
  }
};

// The same with non-negative float weights (atomic_min orders non-negative floats exactly).
struct SsspF32 {
  using Value = float;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  static constexpr Value kUnreached = std::numeric_limits<float>::infinity();
  vid_t source;

  OOC_HD Value init(vid_t v) const { return v == source ? 0.0f : kUnreached; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t weight) const {
    return src + weight_as_float(weight);  // +inf stays +inf
  }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    return lower_to(dst, offer(src, weight));
  }
};

// Connected components by min-label propagation on a symmetric graph. Labels are internal ids;
// the engine maps each component to the smallest user id in it at the end.
struct Cc {
  using Value = vid_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;

  OOC_HD Value init(vid_t v) const { return v; }
  OOC_HD bool active_at_start(vid_t) const { return true; }
  OOC_HD Value offer(Value src, std::uint32_t) const { return src; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const { return lower_to(dst, src); }
};

// Afforest (Sutton, Ben-Nun and Bader, IPDPS 2018; as GAP's cc.cc runs it): connected components
// as a union-find forest, `parent`, in which every vertex points to itself (a root) or to a
// smaller id. OocEngine::cc links each vertex to the first neighbours of its list, finds the
// largest tree by sampling, and then streams, as an ordinary run, only the lists of the vertices
// outside it (AfforestLink); docs/programs.md, "Connected components".
//
// Joins the trees of u and v: the larger of the two ids met is hooked under the smaller with a
// compare-and-swap, and the walk goes on from where each now points when another thread moved
// it first. Safe to call from any number of threads at once.
OOC_HD inline void union_link(vid_t* parent, vid_t u, vid_t v) {
  vid_t a = atomic_load(parent + u);
  vid_t b = atomic_load(parent + v);
  while (a != b) {
    const vid_t high = a > b ? a : b;
    const vid_t low = a > b ? b : a;
    const vid_t above = atomic_load(parent + high);
    if (above == low) return;
    if (above == high && atomic_cas(parent + high, high, low) == high) return;
    a = atomic_load(parent + atomic_load(parent + high));
    b = atomic_load(parent + low);
  }
}

// Points v straight at its root (halving what later walks cost). Run over every vertex at once,
// as the links have stopped: each write only skips ancestors.
OOC_HD inline void union_compress(vid_t* parent, vid_t v) {
  vid_t p = atomic_load(parent + v);
  for (vid_t up = atomic_load(parent + p); up != p; up = atomic_load(parent + p))
    p = up;
  atomic_exchange(parent + v, p);
}

// Afforest's last pass: every vertex outside the largest tree (`giant`, a root) links along its
// whole list. A vertex inside it needs no pass: on a symmetric graph each of its edges to another
// tree is also an edge of that tree's vertex, which does link. One iteration: relax activates
// nothing. The value is unused; the forest is `parent` (device memory on the GPU).
struct AfforestLink {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;
  vid_t* parent;
  vid_t giant;

  OOC_HD Value init(vid_t) const { return 0; }
  OOC_HD bool active_at_start(vid_t v) const { return atomic_load(parent + v) != giant; }
  OOC_HD bool relax(Value, std::uint32_t, Value*, vid_t from, vid_t to) const {
    union_link(parent, from, to);
    return false;
  }
};

// PageRank, delta form (Maiter; HyTGraph §VI-A). Ranks are kept unnormalised (every vertex
// starts with 1 - damping, so a typical rank is about 1) and normalised to sum to 1 at the end.
// A vertex is active while its pending delta is at least `threshold`, and with `per_edge` it is
// processed only while its delta per out-edge is at least that (Andersen, Chung and Lang's rule:
// a hub waits until its delta pays for its list). Dangling vertices absorb their delta: their
// rank is not redistributed (as in HyTGraph and Maiter).
struct PageRank {
  using Value = float;
  static constexpr ProgramKind kind = ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  float damping;
  float threshold;
  float per_edge = 0;  // the least delta per out-edge processed (0: none)

  OOC_HD double least_delta_per_edge() const { return per_edge; }

  OOC_HD Value init(vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(vid_t) const { return 1.0f - damping; }
  OOC_HD bool active_at_start(vid_t) const { return 1.0f - damping >= threshold; }
  OOC_HD Value message(Value delta, eid_t out_degree) const {
    return damping * delta / static_cast<float>(out_degree);
  }
  OOC_HD Value offer(Value message, std::uint32_t) const { return message; }
  OOC_HD bool relax(Value message, std::uint32_t, Value* dst) const {
    const float before = atomic_add(dst, message);
    return before < threshold && before + message >= threshold;
  }
};

static_assert(GraphProgram<Bfs> && GraphProgram<SsspU32> && GraphProgram<SsspF32> &&
              GraphProgram<Cc> && GraphProgram<AfforestLink> && GraphProgram<PageRank>);

}  // namespace ooc
