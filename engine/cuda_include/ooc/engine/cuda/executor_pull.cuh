#pragma once
// Part of CudaExecutor<P> (cuda_executor.cuh, which includes this at its end): the pull side.
// In an iteration that pulls, a task's kernels gather into its gathering vertices instead of
// pushing from the frontier (advance_pull.cuh): the warp gathers under the warp mapping and for a
// zero-copy task that counts the lines it reads, SAGE-style tiled gathers under every other
// mapping, compressed lists read in place a warp per vertex (from pinned host memory) or a thread
// per short list (from the edge cache); then the long lists they queued.
// Templated on the program because a gather reduces the program's offers.
#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/kernels/cuda/advance_compressed_tiled.cuh"
#include "ooc/kernels/cuda/advance_pull.cuh"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {

template <class P>
template <class Source>
void CudaExecutor<P>::gather_ranges(unsigned i, const cuda::RangeSet& ranges, Source source,
                                    const cuda::OffsetEdges& edges, const char* doing,
                                    bool count_lines, cuda::ListCut cut) {
  if constexpr (kCanPull) {
    const auto rule = pull_rule();
    const cuda::PullState state = pull_state(i, count_lines);
    with_mapping(
        [&]<class Mapping>(Mapping) {
          if constexpr (cuda::kWarpMapped<Mapping>) {
            OOC_LAUNCH(cuda::pull_ranges_kernel, warp_grid_for(task_words_), kBlockThreads,
                       stream(i), doing, rule, state, ranges, source, edges, cut);
          } else {
            OOC_LAUNCH(cuda::pull_ranges_tiled_kernel, grid_for(task_words_ * 64), kBlockThreads,
                       stream(i), doing, rule, state, ranges, source, edges, cut);
          }
        },
        count_lines);
    drain_gathers(i, {}, count_lines, doing);
  }
}

template <class P>
void CudaExecutor<P>::gather_compacted(unsigned i, const cuda::CompactedEdges& batch,
                                       std::uint64_t count, const char* doing) {
  if constexpr (kCanPull) {
    const auto rule = pull_rule();
    const cuda::PullState state = pull_state(i, false);
    with_mapping([&]<class Mapping>(Mapping) {
      if constexpr (cuda::kWarpMapped<Mapping>) {
        OOC_LAUNCH(cuda::pull_compacted_kernel, warp_grid_for(count), kBlockThreads, stream(i),
                   doing, rule, state, batch, count);
      } else {
        OOC_LAUNCH(cuda::pull_compacted_tiled_kernel, grid_for(count), kBlockThreads, stream(i),
                   doing, rule, state, batch, count);
      }
    });
    drain_gathers(i, {}, false, doing);
  }
}

// Compressed lists read in place: a thread per short list (`tiled`: in the edge cache), else a
// warp per gathering vertex.
template <class P>
template <class Source>
void CudaExecutor<P>::gather_compressed(const cuda::RangeSet& ranges, Source source,
                                        const cuda::CompressedEdges& lists, bool tiled,
                                        const char* doing) {
  if constexpr (kCanPull) {
    const auto rule = pull_rule();
    const cuda::PullState state = pull_state(kDirect, false, lists);
    if (tiled) {
      OOC_LAUNCH(cuda::pull_compressed_tiled_kernel, grid_for(task_words_ * 64), kBlockThreads,
                 stream(kDirect), doing, rule, state, ranges, source, lists);
    } else {
      OOC_LAUNCH(cuda::pull_compressed_kernel, warp_grid_for(task_words_), kBlockThreads,
                 stream(kDirect), doing, rule, state, ranges, source, lists);
    }
    drain_gathers(kDirect, lists, false, doing);
  }
}

template <class P>
void CudaExecutor<P>::drain_gathers(unsigned i, const cuda::CompressedEdges& lists,
                                    bool count_lines, const char* doing) {
  if constexpr (kCanPull) {
    const auto rule = pull_rule();
    OOC_LAUNCH(cuda::pull_heavy_kernel, static_cast<unsigned>(max_blocks_), kBlockThreads,
               stream(i), doing, rule, pull_state(i, count_lines, lists));
    OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + kHeavyCounters + i, 0, sizeof(unsigned long long),
                             stream(i)),
             doing);
  }
}

}  // namespace ooc::detail
