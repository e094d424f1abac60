#pragma once
// k-core's step between two shells on the GPU (kcore_program.hpp; docs/programs.md, "k-core"), as
// kernels between two runs (executor_kcore.cu) and inside the frontier loop, which then peels
// shell after shell without handing back to the host (LoopReopen<KCorePeel>).
//
// A step: the vertices of the list of those not peeled (KCoreSteps::left[side]) that are still not
// peeled move to the other list, a warp's at once, and the least remaining degree c among them is
// found (kcore_compact); each of them at c gets core number c and is handed on (kcore_open: to the
// run's next frontier); then the shell word becomes c and the lists change sides (kcore_finish). A
// step that finds no vertex left opens nothing, and c is KCoreState::kUnpeeled.
#include <cooperative_groups.h>

#include <cstdint>

#include "ooc/engine/kcore_program.hpp"
#include "ooc/kernels/cuda/frontier_loop.cuh"

namespace ooc::cuda {

// Pass 1 of a step, by every thread of the grid (whole warps): the compaction and the least.
__device__ inline void kcore_compact(const KCoreState& s) {
  const KCoreSteps& k = s.steps;
  const unsigned long long side = read(k.words + KCoreSteps::kSide);
  const vid_t* in = k.left[side];
  vid_t* out = k.left[side ^ 1];
  const unsigned long long count = read(k.words + KCoreSteps::kCount + side);
  unsigned long long* kept = k.words + KCoreSteps::kCount + (side ^ 1);
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long least = ~0ull;
  for (std::uint64_t base = grid_thread() - lane; base < count; base += grid_threads()) {
    const std::uint64_t i = base + lane;
    const vid_t v = i < count ? in[i] : 0;
    const bool keeps = i < count && atomic_load(s.core + v) == KCoreState::kUnpeeled;
    const unsigned mask = __ballot_sync(kFullMask, keeps);
    if (mask == 0) continue;
    unsigned long long first = 0;
    if (lane == 0) first = atomicAdd(kept, static_cast<unsigned long long>(__popc(mask)));
    first = __shfl_sync(kFullMask, first, 0);
    if (!keeps) continue;
    out[first + static_cast<unsigned>(__popc(mask & ((1u << lane) - 1)))] = v;
    least = min(least, static_cast<unsigned long long>(atomic_load(s.remaining + v)));
  }
  least = warp_min(least);
  if (lane == 0 && least != ~0ull) atomicMin(k.words + KCoreSteps::kLeast, least);
}

// Pass 2, after a barrier: each vertex kept at `shell` remaining edges (none has fewer) gets core
// number `shell` and is handed to open(v).
template <class Open>
__device__ void kcore_open(const KCoreState& s, std::uint32_t shell, Open&& open) {
  const KCoreSteps& k = s.steps;
  const unsigned long long side = read(k.words + KCoreSteps::kSide) ^ 1;
  const vid_t* kept = k.left[side];
  const unsigned long long count = read(k.words + KCoreSteps::kCount + side);
  for (std::uint64_t i = grid_thread(); i < count; i += grid_threads()) {
    const vid_t v = kept[i];
    if (atomic_load(s.remaining + v) > shell) continue;
    s.core[v] = shell;
    open(v);
  }
}

// Pass 3, by one thread after a barrier: the shell word, the lists' sides, the words reset for the
// next step; `in_loop` counts a shell the frontier loop opened.
__device__ inline void kcore_finish(const KCoreState& s, bool in_loop) {
  unsigned long long* words = s.steps.words;
  const unsigned long long least = words[KCoreSteps::kLeast];
  const unsigned long long side = words[KCoreSteps::kSide];
  if (least != ~0ull) {
    *s.shell = static_cast<std::uint32_t>(least);
    if (in_loop) words[KCoreSteps::kLoopShells] += 1;
  }
  words[KCoreSteps::kCount + side] = 0;
  words[KCoreSteps::kSide] = side ^ 1;
  words[KCoreSteps::kLeast] = ~0ull;
}

// The frontier loop's queues have run dry: the next shell opens into the level's queue and
// bitmap (`m`), and the loop goes on; false once every vertex is peeled. Three grid-wide barriers:
// after the compaction, after the opening (every thread has read the least), and after the
// finish (the next level's relaxes read the new shell).
template <>
struct LoopReopen<KCorePeel> {
  static constexpr bool kReopens = true;
  template <class Value>
  __device__ static bool reopen(const KCorePeel& program, const LoopMark<Value>& m,
                                const cooperative_groups::grid_group& grid, bool lead) {
    const KCoreState& s = program.s;
    kcore_compact(s);
    grid.sync();
    const unsigned long long least = loop_least_seen(s.steps.words + KCoreSteps::kLeast);
    if (least != ~0ull) {
      kcore_open(s, static_cast<std::uint32_t>(least), [&](vid_t v) {
        if (bit_set(m.near_bits, v)) m.to_near(v);
      });
    }
    grid.sync();
    if (lead) kcore_finish(s, true);
    grid.sync();
    return least != ~0ull;
  }
};

}  // namespace ooc::cuda
