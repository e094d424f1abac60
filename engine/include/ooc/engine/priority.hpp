#pragma once
// Priority windows: which active vertices an iteration processes, and which it defers.
//
// HyTGraph (§VI-A) orders partitions by contribution — hubs first, the largest pending delta
// first — and processes a loaded partition once more. On its own that barely changes the work
// (measured here: somewhat fewer bytes for SSSP and PageRank, and PageRank processing more
// edges; the figures are in docs/performance-log.md, "Figures moved from code comments").
// What cuts the work is to also *defer* the vertices whose update is least useful now,
// as delta-stepping does for shortest paths and Maiter's priority queue for delta PageRank:
// a vertex processed later pushes a more settled value (SSSP) or a larger accumulated delta
// (PageRank), so fewer pushes reach the fixpoint.
//
// For programs that declare `ordered`, each iteration histograms the active vertices by
// urgency — the value for monotone programs (smaller first), the pending delta per out-edge for
// accumulative ones (larger first, on a log scale: what a push moves over what it costs; by the
// delta alone hubs would win every iteration and be pushed over and over) — and processes the most
// urgent buckets that together hold at least `fraction` of the active edges (and at least
// `min_edges`). The others stay active for later iterations. Programs that are not ordered (CC) get
// HyTGraph's behaviour.
//
// An accumulative program with a least delta per edge (program_contract.hpp) puts a floor under
// every window, priority on or off: a vertex whose pending delta per out-edge is below it is not
// processed and does not count as active, so the run ends when no vertex reaches it.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"

namespace ooc {

inline constexpr int kPriorityBuckets = 256;
inline constexpr double kMonotoneFraction = 0.1;      // of the active edges
inline constexpr double kAccumulativeFraction = 0.8;  // of the pending delta

inline double priority_fraction(double asked, bool accumulative) {
  if (asked > 0) return asked;
  return accumulative ? kAccumulativeFraction : kMonotoneFraction;
}

// The range of urgency keys over the active vertices. For accumulative programs the keys are
// log2 of the pending delta, negated so that smaller always means more urgent.
struct UrgencyRange {
  double most = 0, least = 0;
  OOC_HD int bucket(double key) const {
    if (!(least > most)) return 0;
    const double u = (key - most) / (least - most) * (kPriorityBuckets - 1);
    return u <= 0 ? 0 : u >= kPriorityBuckets - 1 ? kPriorityBuckets - 1 : static_cast<int>(u);
  }
};

// Monotone programs: the value. Accumulative programs: -log2(delta per out-edge).
OOC_HD inline double urgency_key(double value, bool accumulative) {
  return accumulative ? -log2(value > 0 ? value : 1e-300) : value;
}

// How urgent a vertex of program P is (smaller first), from its value, its pending delta (read
// by accumulative programs only) and its out-degree: the one formula both backends window by.
template <class P>
OOC_HD double urgency([[maybe_unused]] typename P::Value value,
                      [[maybe_unused]] typename P::Value delta, [[maybe_unused]] eid_t degree) {
  if constexpr (P::kind == ProgramKind::monotone) {
    return urgency_key(static_cast<double>(value), false);
  } else {
    return urgency_key(static_cast<double>(delta) / static_cast<double>(degree > 0 ? degree : 1),
                       true);
  }
}

// The urgency key above which program P's vertices are never processed (its least delta per
// edge); infinity when it has none.
template <class P>
double urgency_floor([[maybe_unused]] const P& program) {
  if constexpr (requires { program.least_delta_per_edge(); }) {
    const double least = program.least_delta_per_edge();
    if (least > 0) return urgency_key(least, true);
  }
  return std::numeric_limits<double>::infinity();
}

struct PriorityWindow {
  bool deferring = false;  // false: process every active vertex (at or under the floor)
  UrgencyRange range;
  int last_bucket = kPriorityBuckets - 1;                  // process buckets [0, last_bucket]
  double floor = std::numeric_limits<double>::infinity();  // larger keys are never processed
  OOC_HD bool admits(double key) const {
    return key <= floor && (!deferring || range.bucket(key) <= last_bucket);
  }
  // Whether some active vertex may stay active, unprocessed.
  bool holds_back() const { return deferring || floor < std::numeric_limits<double>::infinity(); }
};

// What the active vertices of one urgency bucket hold.
struct BucketLoad {
  std::uint64_t edges = 0;
  double mass = 0;  // pending delta (accumulative programs)
};

// The smallest prefix of buckets holding at least `fraction` of the work — of the active edges
// for monotone programs, of the pending delta for accumulative ones — and at least `min_edges`
// edges; not deferring when that is every bucket.
PriorityWindow choose_window(const UrgencyRange& range, std::span<const BucketLoad> buckets,
                             bool by_mass, double fraction, std::uint64_t min_edges);
// Monotone programs, delta-stepping's bucket: the buckets up to the one that holds the smallest
// active key plus `delta`, and on until they hold at least `min_edges` edges.
PriorityWindow choose_delta_window(const UrgencyRange& range, std::span<const BucketLoad> buckets,
                                   double delta, std::uint64_t min_edges);

}  // namespace ooc
