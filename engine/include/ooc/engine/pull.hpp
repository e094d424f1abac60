#pragma once
// The pull direction's rule for one program (programs.hpp, "The pull direction"): what a source
// sends, how the offers a vertex gathers combine, when it may stop reading its list, and how the
// result lands in its value. The CPU loop (cpu_advance.hpp) and the CUDA kernels
// (advance_pull.cuh) gather with it; it is written once, for host and device.
//
// On a symmetric graph a vertex's out-list is its in-list, so a pulling vertex reads its own
// list with the same transfer engines as a pushing one (GraphCage §3 pulls over in-edges; Beamer
// et al.'s bottom-up BFS step is the special case of a pull floor).
//
// Monotone programs gather from every in-neighbour's current value: a neighbour outside the
// frontier has already pushed or been pulled from, so its offer changes nothing, and reading all
// of them needs no frontier test. Accumulative programs gather the messages the frontier sends
// this iteration, which the executor takes from the frontier into `sent` before any vertex
// gathers (0 for the others), so that every delta is sent exactly once.
#include <cstdint>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/engine/programs.hpp"

namespace ooc {

template <PullProgram P>
struct PullRule {
  using Value = typename P::Value;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;
  static constexpr bool kMax = !kAccumulative && reduction_of<P>() == Reduction::max;

  P program;
  const Value* sent;  // what each vertex offers: values (monotone) or this iteration's messages
  Value* target;      // values (monotone) or deltas (accumulative)
  Value floor{};      // with has_floor: no offer can be lower this iteration
  bool has_floor = false;

  // What a gathering vertex starts from: its own value (monotone), nothing yet (accumulative).
  OOC_HD Value start(vid_t v) const { return kAccumulative ? Value{0} : atomic_load(target + v); }
  OOC_HD Value offer(vid_t source, std::uint32_t weight) const {
    return program.offer(atomic_load(sent + source), weight);
  }
  // Also in a wider type than Value (the CPU loop sums floats in double).
  template <class T>
  OOC_HD static T combine(T a, T b) {
    if constexpr (kAccumulative) {
      return a + b;
    } else if constexpr (kMax) {
      return a < b ? b : a;
    } else {
      return b < a ? b : a;
    }
  }
  // combine() into *at, atomically (the GPU's per-vertex slots in shared memory).
  OOC_HD static void combine_into(Value* at, Value x) {
    if constexpr (kAccumulative) {
      atomic_add(at, x);
    } else if constexpr (kMax) {
      atomic_max(at, x);
    } else {
      atomic_min(at, x);
    }
  }
  // Nothing left to gather: the vertex holds the floor.
  OOC_HD bool done(Value gathered) const { return has_floor && !(floor < gathered); }
  // Combines what v gathered into its value (monotone) or delta (accumulative); true when v joins
  // the next frontier.
  OOC_HD bool apply(vid_t v, Value gathered, Value started) const {
    if constexpr (kAccumulative) {
      return gathered != Value{0} && program.relax(gathered, 0, target + v);
    } else if constexpr (kMax) {
      return started < gathered && atomic_max(target + v, gathered) < gathered;
    } else {
      return gathered < started && gathered < atomic_min(target + v, gathered);
    }
  }
};

}  // namespace ooc
