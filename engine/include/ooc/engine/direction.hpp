#pragma once
// Push or pull, per iteration (EngineOptions::direction = auto). Both backends survey the two
// directions at the start of an iteration — the frontier's out-lists for push, the lists of the
// vertices that may still change for pull — and the driver sums the surveys
// (survey_directions) and asks choose_pull() which to run.
//
// In GPU memory nothing crosses the link, and the work is the edges each direction reads:
//   * a program with a pull floor (BFS) follows Beamer et al.'s direction-optimising BFS (SC'12,
//     §III) with the GAP benchmark suite's constants: switch to pull once the frontier's edges
//     exceed the unvisited vertices' edges / alpha, and back to push once the frontier is both
//     shrinking and under V / beta. A pulling vertex stops at its first frontier neighbour, so
//     pull reads far fewer edges than it surveys.
//   * the others read every edge of their pulling vertices, but without an atomic per edge:
//     pull when the frontier's edges are at least kGatherShare of those.
// Out of core the link decides: pull when the cost model's choice of engines for the pulling
// partitions moves fewer bytes than its choice for the frontier's (docs/cost-model.md#direction).
// When neither direction moves a byte (every list either reads is in the edge cache), a program
// with a pull floor follows Beamer's switch as in GPU memory, and the others push.
#include <cstdint>
#include <span>

#include "ooc/engine/tasks.hpp"

namespace ooc {

inline constexpr double kBottomUpAlpha = 15;  // GAP bfs.cc: top-down -> bottom-up
inline constexpr double kBottomUpBeta = 18;   // GAP bfs.cc: bottom-up -> top-down
// A pushed edge is an atomic on a random target, a pulled edge a read of a random source: pull
// pays once the frontier holds about half the edges the pull would read
// (docs/cost-model.md#direction has the measurements behind it).
inline constexpr double kGatherShare = 0.5;

// What the survey of one iteration found for each direction (sums over partitions).
struct DirectionSurvey {
  std::uint64_t frontier_vertices = 0;  // push: the admitted active vertices
  std::uint64_t frontier_edges = 0;     // and their out-edges
  std::uint64_t pull_vertices = 0;      // pull: the vertices that would gather
  std::uint64_t pull_edges = 0;         // and their in-edges
  std::uint64_t push_bytes = 0;         // over the link, with the engines the cost model chose
  std::uint64_t pull_bytes = 0;
};

// The sums over partitions of one survey per partition of each direction: `push` of the
// admitted frontier, `pull` of the vertices that would gather; the bytes are link_bytes() of the
// engines the surveys chose.
DirectionSurvey survey_directions(std::span<const PartitionSurvey> push,
                                  std::span<const PartitionSurvey> pull, std::uint32_t edge_bytes,
                                  std::uint32_t request_bytes);

// Carried from one iteration to the next.
struct DirectionState {
  bool pulled = false;              // the last iteration pulled
  std::uint64_t last_frontier = 0;  // its frontier's vertices
};

// True when this iteration should pull. `early_exit`: the program has a pull floor; `on_device`:
// every partition is on the device (in-memory mode), so only the edges read count (out of core
// too for a program with a pull floor when neither direction moves any bytes). Updates state.
bool choose_pull(const DirectionSurvey& s, bool early_exit, bool on_device, std::uint64_t vertices,
                 DirectionState& state);

}  // namespace ooc
