#pragma once
// The searches of strongly connected components' forward-backward step (scc.cpp; docs/programs.md,
// "Strongly connected components") as runs of the engine: what the pivot reaches without entering
// a closed vertex. The forward search runs over the out-lists, the backward one over the in-lists
// (an engine of its own on the graph's in_edge_view), so both get every transfer policy, the edge
// cache and the frontier loop that BFS has.
//
// A vertex's value is 1 once reached, 0 before; a relax raises it with an atomic max, and the one
// that raises it makes it active. Closed vertices (settled already, and for the backward search
// also those the forward one did not reach) are a bitmap the relax reads by the edge's target, so
// the program takes the edge's ids and never pulls.
#include <cstdint>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/program_contract.hpp"

namespace ooc {

struct SccReach {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::max;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  // A bit per vertex, set for those the search must not enter (device memory on the CUDA backend).
  const std::uint32_t* closed = nullptr;
  vid_t pivot = 0;

  OOC_HD Value init(vid_t v) const { return v == pivot ? 1 : 0; }
  OOC_HD bool active_at_start(vid_t v) const { return v == pivot; }
  OOC_HD bool relax(Value, std::uint32_t, Value* dst, vid_t, vid_t to) const {
    if ((closed[to / 32] >> (to % 32)) & 1u) return false;
    return atomic_load(dst) == 0 && atomic_max(dst, Value{1}) == 0;
  }
};

}  // namespace ooc
