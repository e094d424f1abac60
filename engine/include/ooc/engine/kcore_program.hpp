#pragma once
// The k-core decomposition by peeling, in the engine's iterations (kcore.cpp drives it;
// docs/programs.md, "k-core"). A vertex's core number is the largest k such that it belongs to a
// subgraph where every vertex has at least k neighbours. Peeling finds it shell by shell: with
// every vertex of core number below c peeled away, the vertices whose remaining degree is at most
// c have core number c; peeling them lowers their neighbours' remaining degrees, which may bring
// more of them to c, until none is left at c (Batagelj and Zaversnik's order, taken a whole
// frontier at a time as in Kabir and Madduri's PKC, IPDPSW 2017).
//
// A run peels shell c (KCoreState::shell), and on the GPU the frontier loop may open the shells
// after it in the same run (cuda/kcore_step.cuh). Its frontier is the vertices peeled last:
// iteration 0 the ones the driver opened the shell with (remaining degree at most c), then those
// the run brought to c.
// Along an edge of a peeled vertex, relax takes the edge away from a target not yet peeled, and
// the one relax that brings the target from c + 1 to c peels it and makes it active. Taking an
// edge away is counted, not idempotent, so each peeled vertex's edges must be relaxed once: a
// vertex is peeled once, so it is active once, and every schedule of the engine (priority
// windows, second passes over a loaded partition, the frontier loop) relaxes an active vertex's
// edges once.
//
// Across ranks (KCoreRankedPeel), a rank relaxes its own vertices' edges, whose targets may be
// any rank's, so no rank sees a target's whole count: the edges taken away in an iteration are
// slots (SharedSlots, one per vertex), added up over the ranks before settle applies them and
// peels the vertices at c or below, so that every rank keeps the same remaining degrees and core
// numbers. A sum is a float: exact while a vertex loses fewer than 2^24 edges in one iteration,
// so kcore.cpp refuses ranks on a graph with a list that long.
#include <cstdint>
#include <limits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/program_contract.hpp"

namespace ooc {

// The GPU's step between shells (cuda/kcore_step.cuh), which the frontier loop takes too: the
// vertices not yet peeled in left[words[kSide]], with words[kCount + side] of them, compacted into
// the other list by each step; the least remaining degree a step finds; the vertices a step
// between two runs opened; the shells the frontier loop opened. Device memory; null on the CPU
// backend, whose driver keeps its own list.
struct KCoreSteps {
  enum Word { kSide, kCount, kLeast = kCount + 2, kOpened, kLoopShells, kWords };
  vid_t* left[2] = {nullptr, nullptr};
  unsigned long long* words = nullptr;
};

// The peeling's arrays (host memory on the CPU backend), per vertex.
struct KCoreState {
  static constexpr std::uint32_t kUnpeeled = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t* remaining = nullptr;  // its degree among the vertices not peeled
  std::uint32_t* core = nullptr;       // its core number once peeled, kUnpeeled before
  // The shell being peeled: one word beside the arrays, which the step between shells sets (on
  // the GPU the frontier loop too, mid-run), so that a run's program is the same for every shell.
  std::uint32_t* shell = nullptr;
  KCoreSteps steps;
  // Ranks only (null on one): whether relax took an edge away from v in this iteration (one slot
  // per vertex), and how many.
  std::uint32_t* marks = nullptr;
  float* taken = nullptr;
};

// What the two programs share: the run peels the shell *s.shell, from the vertices opened with it.
struct KCoreShell {
  using Value = std::uint32_t;  // unused: the answer is in the state's arrays
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;
  KCoreState s;

  OOC_HD Value init(vid_t) const { return 0; }
  OOC_HD std::uint32_t shell() const { return atomic_load(s.shell); }
  OOC_HD bool active_at_start(vid_t v) const { return s.core[v] == shell(); }
};

// One rank.
struct KCorePeel : KCoreShell {
  OOC_HD bool relax(Value, std::uint32_t, Value*, vid_t, vid_t to) const {
    if (s.core[to] != KCoreState::kUnpeeled) return false;  // peeled: its degree is spent
    const std::uint32_t c = shell();
    if (atomic_add(s.remaining + to, ~std::uint32_t{0}) != c + 1) return false;
    s.core[to] = c;  // this relax brought it to the shell, and no other does
    return true;
  }
};

// Across ranks: relax counts the edges taken away, settle applies the ranks' sums and peels.
struct KCoreRankedPeel : KCoreShell {
  OOC_HD bool relax(Value, std::uint32_t, Value*, vid_t, vid_t to) const {
    if (s.core[to] != KCoreState::kUnpeeled) return false;
    atomic_add(s.taken + to, 1.0f);
    if ((s.marks[to] & 1u) == 0) atomic_or(s.marks + to, 1u);
    return false;
  }
  OOC_HD bool settle(vid_t v, std::uint32_t) const {
    if (s.marks[v] != 0) {
      s.remaining[v] -= static_cast<std::uint32_t>(s.taken[v]);
      s.taken[v] = 0.0f;
      s.marks[v] = 0;
    }
    const std::uint32_t c = shell();
    if (s.core[v] != KCoreState::kUnpeeled || s.remaining[v] > c) return false;
    s.core[v] = c;
    return true;
  }
  // The edges taken away from each vertex in the iteration.
  SharedSlots shared() const { return {1, s.marks, s.taken}; }
};

}  // namespace ooc
