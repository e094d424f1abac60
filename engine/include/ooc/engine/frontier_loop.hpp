#pragma once
// Small frontiers run by the processor itself: the frontier loop.
//
// On graphs with thousands of levels of a few thousand edges each (road networks, meshes, grids)
// a host-driven iteration (survey, plan, launch, read back) costs more than its edges: on a
// 4096² grid an H100 iteration took 0.137 ms for about 8,000 edges, and BFS 1.17 s for 8,191
// levels. So while an iteration's active edges are at most FrontierLoop::edges, the driver hands
// the frontier to the executor, which runs the iterations itself with the frontier as a queue in
// its own memory, and hands back when the next level's edges pass the threshold, when the run
// converges, or after FrontierLoop::iterations levels (so that a cancelled run stops, and the
// iteration limit holds). On the GPU it is one persistent kernel with a grid-wide barrier per
// level (Groute, PPoPP 2017; Atos, ICPP 2022 keeps its queue on the GPU the same way), reading
// each list where it is (GPU memory, the edge cache, or pinned host memory by zero-copy,
// compressed lists too); on the CPU a queue per level. The frontier bitmap stays the truth: a
// vertex is queued when its bit is set, so the host loop picks up exactly where the loop stopped.
//
// Ordered monotone programs with a delta (SSSP) keep two piles, Davidson et al.'s near-far
// (IPDPS 2014), the simplest work-efficient delta-stepping (Meyer and Sanders): the near pile
// holds the active vertices whose value is below a threshold and is processed level by level;
// the others wait in the far pile. When the near pile is empty, the threshold becomes the
// smallest far value plus delta and the far vertices below it move near. Each vertex is settled
// in its bucket of width delta, light and heavy edges alike, so the work stays near one pass over
// the edges where the host loop's windows, which never take fewer than priority_min_edges edges
// (a GPU's worth), processed each edge of a 4096² grid 94 times.
#include <cstdint>

#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/program_contract.hpp"
#include "ooc/kernels/message.hpp"

namespace ooc {

// What one stretch of the loop may do.
struct FrontierLoop {
  std::uint64_t edges = 0;       // hand back once the next level's active edges pass this
  std::uint32_t iterations = 0;  // levels at most, this stretch
  double delta = 0;              // near-far piles of this width; 0: one pile
  std::uint32_t hops = 0;        // GPU: EngineOptions::frontier_loop_hops
};

// Levels in one stretch at most. A stretch ends with one read-back, so the cost of a hand-back
// every 4,096 levels is lost in the levels' own; a run that is cancelled stops within a stretch.
inline constexpr std::uint32_t kLoopIterations = 4096;

// The GPU's queues (frontier_loop.cuh): three near queues of the threshold's edges and some slack
// (a frontier's vertices without edges), two far queues of kLoopFarLevels near queues each (the
// far pile of a few levels; past it the loop hands back), the far pile's bitmap, three arrays of
// heavy items (a list of more than kLoopHeavyEdges edges each, so a level's edges over that), a
// record per level. MemoryPlan counts them among the vertex data.
inline constexpr std::uint64_t kLoopQueueSlack = 1024;
inline constexpr std::uint64_t kLoopFarLevels = 4;
inline constexpr std::uint64_t kLoopLevelBytes = 72;
inline constexpr std::uint64_t kLoopHeavyEdges = 1024;
inline constexpr std::uint64_t kLoopHeavyItemBytes = 32;
// The largest threshold the loop takes (a larger EngineOptions::frontier_loop_edges runs with
// this): a queue's count shares a 64-bit counter with its edges.
inline constexpr std::uint64_t kMaxLoopEdges = std::uint64_t{1} << 23;

// The vertices a near queue holds for a threshold of `edges` on a graph of n vertices.
inline std::uint64_t loop_queue_capacity(std::uint64_t edges, std::uint64_t n) {
  const std::uint64_t wanted = (edges < kMaxLoopEdges ? edges : kMaxLoopEdges) + kLoopQueueSlack;
  return wanted < n + 1 ? wanted : n + 1;
}

// The heavy items a level may hand on for a threshold of `edges`.
inline std::uint64_t loop_heavy_capacity(std::uint64_t edges) {
  return (edges < kMaxLoopEdges ? edges : kMaxLoopEdges) / kLoopHeavyEdges + 1;
}

// The device memory of the loop's buffers (queues, the odd levels' bitmap, the far pile, heavy
// items, level records) on n vertices.
inline std::uint64_t frontier_loop_bytes(std::uint64_t edges, std::uint64_t n) {
  const std::uint64_t queue = loop_queue_capacity(edges, n) * sizeof(vid_t);
  return 3 * queue + 2 * kLoopFarLevels * queue + 2 * ((n + 63) / 64 * 8) +
         3 * loop_heavy_capacity(edges) * kLoopHeavyItemBytes +
         (kLoopIterations + 1) * kLoopLevelBytes;
}

// Whether the loop serves a run: of a monotone program that does not settle between iterations
// (BFS, SSSP, label propagation, users' monotone programs), on one rank (ranks exchange after
// every iteration), pushing (pull forced keeps the host loop), with the edges in GPU memory or
// moved by the engines the loop reads like (hybrid, zerocopy). Filter and compaction forced by
// name keep their engines, and the unified baseline its managed memory.
inline bool frontier_loop_serves(ProgramKind kind, bool settles, const EngineOptions& o,
                                 const MemoryPlan& plan, bool ranked) {
  return kind == ProgramKind::monotone && !settles && !ranked && o.frontier_loop_edges > 0 &&
         o.direction != Direction::pull &&
         (plan.in_memory || o.transfer == TransferPolicy::hybrid ||
          o.transfer == TransferPolicy::zerocopy);
}

template <class P>
bool frontier_loop_serves(const EngineOptions& o, const MemoryPlan& plan, bool ranked) {
  return frontier_loop_serves(P::kind, SettlingProgram<P>, o, plan, ranked);
}

}  // namespace ooc
