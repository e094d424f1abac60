#pragma once
// Part of CudaExecutor<P> (cuda_executor.cuh, which includes this at its end): each kind of task
// run through the program's advance kernels. Filter tasks advance over their staging buffer,
// direct tasks (zero-copy, resident, unified) over the lists where they are, compaction batches
// over what the CPU gathered; the staging itself is CudaRunState's (task_staging.cu). Every
// advance takes its kernel from the one mapping dispatch (with_mapping), and in an iteration that
// pulls hands over to the gathers (executor_pull.cuh).
#include <chrono>
#include <span>
#include <vector>

#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/kernels/cuda/advance_compressed_tiled.cuh"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {

template <class P>
template <class Source>
void CudaExecutor<P>::advance_ranges(unsigned i, const cuda::RangeSet& ranges, Source source,
                                     const cuda::OffsetEdges& edges, const char* doing,
                                     bool count_lines, cuda::ListCut cut) {
  if constexpr (kCanPull) {
    if (pulling_) {
      gather_ranges(i, ranges, source, edges, doing, count_lines, cut);
      return;
    }
  }
  with_mapping([&]<class Mapping>([[maybe_unused]] Mapping mapping) {
    if constexpr (cuda::kWarpMapped<Mapping>) {
      OOC_LAUNCH(cuda::advance_ranges_kernel, warp_grid_for(task_words_), kBlockThreads, stream(i),
                 doing, program_, program_state(i), ranges, source, edges);
    } else {
      OOC_LAUNCH(cuda::advance_ranges_block_kernel, grid_for(task_words_ * 64), kBlockThreads,
                 stream(i), doing, program_, program_state(i), ranges, source, edges, mapping);
    }
  });
  drain_heavy(i, doing);
}

template <class P>
void CudaExecutor<P>::advance_compacted(unsigned i, const cuda::CompactedEdges& batch,
                                        std::uint64_t count, const char* doing) {
  if constexpr (kCanPull) {
    if (pulling_) {
      gather_compacted(i, batch, count, doing);
      return;
    }
  }
  with_mapping([&]<class Mapping>([[maybe_unused]] Mapping mapping) {
    if constexpr (cuda::kWarpMapped<Mapping>) {
      OOC_LAUNCH(cuda::advance_compacted_kernel, warp_grid_for(count), kBlockThreads, stream(i),
                 doing, program_, program_state(i), batch, count);
    } else {
      OOC_LAUNCH(cuda::advance_compacted_block_kernel, grid_for(count), kBlockThreads, stream(i),
                 doing, program_, program_state(i), batch, count, mapping);
    }
  });
  drain_heavy(i, doing);
}

template <class P>
void CudaExecutor<P>::drain_heavy(unsigned i, const cuda::CompressedEdges& lists,
                                  const char* doing) {
  OOC_LAUNCH(cuda::heavy_kernel, static_cast<unsigned>(max_blocks_), kBlockThreads, stream(i),
             doing, program_, program_state(i, lists));
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + kHeavyCounters + i, 0, sizeof(unsigned long long),
                           stream(i)),
           doing);
}

template <class P>
void CudaExecutor<P>::run_filter(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a filter task";
  const Staged lists = staged(task, stats);
  advance_ranges(lists.buffer, ranges, cuda::FromWork{work_bits()}, lists.edges, doing);
  if (task.reprocess && !pulling_) {
    const cuda::TakeAdmitted<VertexView<P>> newly_active{next_.data(), view(window_)};
    advance_ranges(lists.buffer, ranges, newly_active, lists.edges, "reprocessing a filter task");
  }
}

template <class P>
void CudaExecutor<P>::run_direct(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a zero-copy task";
  const DirectTask direct = open_direct(task, stats, doing);
  const cuda::FromWork source{work_bits()};
  advance_direct(task, ranges, source, direct.count_lines, doing);
  // A resident slice (TaskOptions::resident_slices), once more over the vertices it activated,
  // as a filter task is.
  if (task.reprocess && !pulling_) {
    const cuda::TakeAdmitted<VertexView<P>> newly_active{next_.data(), view(window_)};
    advance_direct(task, ranges, newly_active, false, "reprocessing a resident slice");
  }
  close_direct(direct, doing);
}

// A direct task's kernels over its lists where they are (compressed or not), from `source`.
template <class P>
template <class Source>
void CudaExecutor<P>::advance_direct(const Task& task, const cuda::RangeSet& ranges, Source source,
                                     bool count_lines, const char* doing) {
  if (const auto lists = compressed_edges(task.engine)) {
    const bool tiled = tiles_compressed(task.engine);
    if (pulling_) {
      if constexpr (kCanPull) gather_compressed(ranges, source, *lists, tiled, doing);
    } else {
      // Pushing, an accumulative program's deltas flow between the vertices of a word that a warp
      // walks in order (as under the Ordered mapping): a thread per list took PageRank more
      // iterations and longer (kron-26 in the cache, performance-log.md, 2026-12-02), so it keeps
      // the warp per vertex.
      bool launched = false;
      if constexpr (!kAccumulative) {
        if (tiled) {
          OOC_LAUNCH(cuda::advance_compressed_tiled_kernel, grid_for(task_words_ * 64),
                     kBlockThreads, stream(kDirect), doing, program_,
                     program_state(kDirect, *lists), ranges, source, *lists);
          launched = true;
        }
      }
      if (!launched) {
        OOC_LAUNCH(cuda::advance_compressed_kernel, warp_grid_for(task_words_), kBlockThreads,
                   stream(kDirect), doing, program_, program_state(kDirect, *lists), ranges, source,
                   *lists);
      }
      drain_heavy(kDirect, *lists, doing);
    }
  } else if (pulling_ && task.engine == TransferEngine::resident && plan_.pull_blocks > 1) {
    // Cache blocking: the gather range by range of source ids, each range's values in the L2.
    for (std::uint32_t b = 0; b < device_.list_blocks; ++b)
      advance_ranges(kDirect, ranges, source, edges_for(task.engine), doing, false, device_.cut(b));
  } else {
    advance_ranges(kDirect, ranges, source, edges_for(task.engine), doing, count_lines);
  }
}

template <class P>
void CudaExecutor<P>::run_compaction(const Task& task, IterationStats& stats) {
  const char* doing = "a compaction task";
  const auto start = Clock::now();
  const std::vector<vid_t> active = compaction_vertices(task, stats, doing);
  for (std::size_t done = 0; done < active.size();) {
    const unsigned i = next_compaction_buffer(doing);
    const Batch batch = stage_compaction(i, std::span<const vid_t>(active).subspan(done), stats);
    advance_compacted(i, batch.edges, batch.vertices, batch.doing);
    done += batch.vertices;
  }
  end_compaction(task);
  stats.transfer_seconds += std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace ooc::detail
