#pragma once
// Graph programs and the contract they follow (DESIGN.md, "Programs and the contract").
//
// A program is a small, trivially copyable struct whose member functions are OOC_HD, so the
// same code runs in CUDA kernels and in the CPU backend's loops. The engine owns the vertex
// arrays and calls the program per active vertex and per out-edge. Two kinds:
//
// Monotone (BFS, SSSP, CC, widest path): one value per vertex that only moves one way.
//   using Value = ...;                         trivially copyable, 4 bytes
//   static constexpr ProgramKind kind = ProgramKind::monotone;
//   static constexpr bool needs_weights, needs_symmetric;
//   Value init(vid_t v) const;                 value before the first iteration
//   bool active_at_start(vid_t v) const;       the first frontier
//   bool relax(Value src, std::uint32_t weight, Value* dst) const;
//       atomically moves *dst toward what src offers along the edge; true when *dst changed,
//       which puts the target in the next frontier.
//   static constexpr bool ordered;             optional: a smaller value is more urgent, and
//       processing urgent vertices first saves work (BFS, SSSP); see priority.hpp
//   static constexpr Reduction combine;        optional: how the ranks of a distributed run
//       combine their copies of a value, Reduction::min (the default) or Reduction::max (a
//       value that only grows, as in widest path); Value must then be uint32_t or float
//
// Accumulative (PageRank in the delta form of Maiter/HyTGraph): a value and a pending delta.
//   static constexpr ProgramKind kind = ProgramKind::accumulative;
//   Value init(vid_t v) const; Value init_delta(vid_t v) const; bool active_at_start(v) const;
//   Value message(Value delta, eid_t out_degree) const;   what each out-edge carries
//   bool relax(Value message, std::uint32_t weight, Value* dst_delta) const;
//       atomically adds to the target's delta; true when the delta crossed the activation
//       threshold (was below it, is now at or above it).
//   static constexpr bool ordered;  optional: a larger pending delta is more urgent (PageRank)
//   The engine takes an active vertex's delta with an atomic exchange (so no contribution is
//   lost or applied twice), adds it to the value, and sends message() along every out-edge; a
//   vertex without out-edges absorbs its delta. At the end value + leftover delta is the result.
//
// Either kind may take the edge's ids: a program that declares
//   bool relax(Value message, std::uint32_t weight, Value* dst, vid_t source, vid_t target) const;
// in place of the three-argument relax() gets the edge's source and target (internal ids) too,
// to read arrays of its own indexed by them (betweenness centrality, bc.hpp, does). Its messages
// then carry their source, 4 bytes more per queued hub list. In a distributed run the engine asks
// an accumulative one whether a delta d received from the other ranks activates v as
// relax(d, 0, &zero, v, v).
//
// The pull direction (EngineOptions::direction) runs a program whose relax() is a pure combine,
// declared by
//   Value offer(Value message, std::uint32_t weight) const;
// what relax() would combine into the target along the edge, with no other effect: monotone
// programs combine offers with their reduction (min, or `combine`), and relax(m, w, dst) must be
// that combine of offer(m, w) into *dst; accumulative ones add offers up, and relax(m, 0, dst)
// must add exactly m (offer(m, 0) == m), which applies a vertex's gathered sum in one call.
// A pulling vertex reads its in-neighbours' values (monotone) or the messages its active
// in-neighbours send this iteration (accumulative), reduces their offers in registers, and
// combines the result into its own value once. Optionally, a min-combining program declares
//   Value pull_floor(Value least) const;
// the least any edge can offer when every frontier vertex holds at least `least` (BFS: least + 1),
// so that a pulling vertex that reaches it stops reading its list (Beamer's bottom-up step).
// Programs that take the edge's ids do not pull.
//
// Under this contract any processing order gives the same answer (monotone programs) or the
// same answer within the threshold (accumulative ones), which is what makes asynchronous,
// prioritised, partition-by-partition scheduling safe. Weights reach relax() as their 32-bit
// pattern; weight_as_float() reads an f32 weight.
#include <concepts>
#include <cstdint>
#include <limits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/kernels/message.hpp"

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

// Whether a program declares `ordered` (and it is true).
template <class P>
constexpr bool is_ordered() {
  if constexpr (requires { P::ordered; }) {
    return P::ordered;
  } else {
    return false;
  }
}

// How the ranks of a distributed run combine a monotone program's values.
template <class P>
constexpr Reduction reduction_of() {
  if constexpr (requires { P::combine; }) {
    return P::combine;
  } else {
    return Reduction::min;
  }
}

// A program that can run in the pull direction, and one whose pulling vertices may stop early.
template <class P>
concept PullProgram =
    !EdgeAwareProgram<P> && requires(const P& p, typename P::Value m, std::uint32_t w) {
  { p.offer(m, w) } -> std::same_as<typename P::Value>;
};
template <class P>
concept PullFloorProgram = PullProgram<P> && requires(const P& p, typename P::Value least) {
  { p.pull_floor(least) } -> std::same_as<typename P::Value>;
};

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
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;

  OOC_HD Value init(vid_t v) const { return v; }
  OOC_HD bool active_at_start(vid_t) const { return true; }
  OOC_HD Value offer(Value src, std::uint32_t) const { return src; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const { return lower_to(dst, src); }
};

// PageRank, delta form (Maiter; HyTGraph §VI-A). Ranks are kept unnormalised (every vertex
// starts with 1 - damping, so a typical rank is about 1) and normalised to sum to 1 at the end.
// A vertex is active while its pending delta is at least `threshold`. Dangling vertices absorb
// their delta: their rank is not redistributed (as in HyTGraph and Maiter).
struct PageRank {
  using Value = float;
  static constexpr ProgramKind kind = ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  float damping;
  float threshold;

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

// Betweenness centrality (Brandes, unweighted), a source at a time in two runs over the edges.
// Both take the edge's ids and keep arrays of their own, which the engine allocates where the
// backend reads them (device memory on the GPU). See docs/programs.md.
//
// Forward: BFS levels as the value, and along the way sigma[v], the number of shortest paths from
// the source to v, and successors[v], the number of out-edges of v to the next level. It runs
// bulk-synchronous (the engine turns priority scheduling off for it), so every iteration
// processes exactly one level, whose sigma is complete: the previous iteration wrote it.
struct BcForward {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;
  static constexpr Value kUnreached = std::numeric_limits<Value>::max();
  vid_t source;
  float* sigma;
  std::uint32_t* successors;

  OOC_HD Value init(vid_t v) const {
    sigma[v] = v == source ? 1.0f : 0.0f;
    successors[v] = 0;
    return v == source ? 0 : kUnreached;
  }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD bool relax(Value level, std::uint32_t, Value* dst, vid_t from, vid_t to) const {
    const Value next = level + 1;
    Value before = atomic_load(dst);
    if (before < next) return false;  // `to` is on this level or an earlier one
    if (before > next) before = atomic_min(dst, next);
    if (before < next) return false;
    atomic_add(sigma + to, atomic_load(sigma + from));
    atomic_add(successors + from, 1u);
    return before > next;  // reached first now: the next level's frontier
  }
};

// Backward: the dependencies, deepest level first in Kahn's order. A vertex's value ends as
// T[v] = 1/sigma[v] + sum over its successors w of T[w] (then delta[v] = sigma[v] T[v] - 1). Its
// own 1/sigma[v] is its initial delta; it runs once, when its last successor has sent
// (`remaining`, the forward run's successor counts, counts down), so it sends its whole T[v]
// along its edges at once, and only the edges to the previous level take it. Any processing
// order gives the same result.
struct BcBackward {
  using Value = float;
  static constexpr ProgramKind kind = ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;
  const std::uint32_t* level;  // the forward run's values
  const float* sigma;
  std::uint32_t* remaining;

  OOC_HD Value init(vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(vid_t v) const {
    return level[v] == BcForward::kUnreached ? 0.0f : 1.0f / sigma[v];
  }
  OOC_HD bool active_at_start(vid_t v) const {
    return level[v] != BcForward::kUnreached && remaining[v] == 0;
  }
  OOC_HD Value message(Value delta, eid_t) const { return delta; }
  OOC_HD bool relax(Value t, std::uint32_t, Value* dst, vid_t from, vid_t to) const {
    if (level[from] == 0 || level[to] != level[from] - 1) return false;
    atomic_add(dst, t);
    return atomic_add(remaining + to, ~std::uint32_t{0}) == 1;  // its last successor
  }
};

}  // namespace ooc
