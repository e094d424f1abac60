#pragma once
// What a CUDA run holds that does not depend on the program: the graph, plan and device state,
// the lists an iteration reads, and the staging of its tasks (task ranges up, a filter task's
// copy and decode, a compaction batch gathered on the CPU into pinned staging and copied up). It
// is compiled once (run_state.cu, task_staging.cu) where CudaExecutor<P>, which derives from it,
// is compiled for every program; CudaExecutor keeps only the kernels that run the program.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/cuda/cost_adapter.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/detail/host_tier.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/advance_raval.cuh"
#include "ooc/transfer/compaction.hpp"

namespace ooc::detail {

inline constexpr int kBlockThreads = 256;
static_assert(kBlockThreads == cuda::kTileThreads, "grid_for sizes the tiled kernels' grids too");

inline bool uses_compaction(TransferPolicy p) {
  return p == TransferPolicy::compaction || p == TransferPolicy::hybrid;
}

// Vertices whose bit is set in a host copy of the work bitmap, within the given ranges.
void collect_vertices(const std::uint64_t* words, std::span<const vid_t> first,
                      std::span<const vid_t> last, std::vector<vid_t>& out);

// The ranges of task t alone, as a view into the uploaded set.
inline cuda::RangeSet task_ranges(const cuda::RangeSet& all, std::uint32_t first,
                                  std::uint32_t end) {
  return {all.first + first,
          all.last + first,
          all.prefix + first,
          all.shift == nullptr ? nullptr : all.shift + first,
          all.list_shift == nullptr ? nullptr : all.list_shift + first,
          end - first};
}

class CudaRunState {
 protected:
  static constexpr unsigned kDirect = kStagingBuffers;  // the stream index of direct tasks
  // Workspace scalars: [0] edges processed, [1..2] urgency bounds, [3] lines that gathering
  // zero-copy tasks read, [4..] heavy queue counters.
  static constexpr unsigned kLinesRead = 3;
  static constexpr unsigned kHeavyCounters = 4;

  // `needs_weights`: the program reads weights; `heavy_item_bytes`: its heavy queues' items.
  CudaRunState(const CudaRun& run, bool needs_weights, std::size_t heavy_item_bytes);
  // The device, the grid's size, and where the edges sit for this run (resident, cached,
  // managed); the in-lists too when the run `may_pull` over them.
  void prepare_device(bool may_pull, const char* doing);

  cudaStream_t stream(unsigned i) const { return ws_.streams[i].get(); }
  unsigned grid_for(std::uint64_t items) const {
    const std::uint64_t wanted = (items + kBlockThreads - 1) / kBlockThreads;
    return static_cast<unsigned>(std::clamp<std::uint64_t>(wanted, 1, max_blocks_));
  }
  unsigned warp_grid_for(std::uint64_t warps) const { return grid_for(warps * cuda::kWarp); }
  // launch(mapping) with the Mapping of options_.load_balance, or (`warp`) the warp mapping
  // whatever it says: the one dispatch of every advance and gather.
  template <class Launch>
  void with_mapping(Launch&& launch, bool warp = false) const {
    if (warp || options_.load_balance == LoadBalance::warp) {
      launch(cuda::WarpPerVertex{});
    } else if (options_.load_balance == LoadBalance::ordered) {
      launch(cuda::Ordered{});
    } else if (options_.load_balance == LoadBalance::decompose) {
      launch(cuda::Decomposed{});
    } else if (options_.load_balance == LoadBalance::hierarchical) {
      // Raval et al.'s MDT (advance_raval.cuh): the mean degree.
      const vid_t n = g_.num_vertices();
      launch(cuda::Hierarchical{{}, n == 0 ? 1 : std::max<eid_t>(1, (g_.num_edges() + n - 1) / n)});
    } else {
      launch(cuda::Tiled{});
    }
  }
  template <class T>
  void d2h(T* dst, const T* src, std::size_t n, cudaStream_t s, const char* doing) {
    OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, s), doing);
  }

  // The lists an iteration reads (`pull`: the pull direction's), and their partitions: the same
  // vertex ranges, their own edges. The edge cache, compressed lists and cache blocking are the
  // out-lists' only; in-lists are read raw.
  DeviceGraph& lists(bool pull) const { return pull ? pull_device_ : device_; }
  std::span<const Partition> parts_of(bool pull) const { return pull ? pull_parts_ : parts_; }
  // Out of core with partitions in the edge cache: its resident tasks read the cache.
  bool cached(bool pull) const { return !plan_.in_memory && !lists(pull).cache.partitions.empty(); }
  bool cached() const { return cached(pulling_); }
  // Filter and zero-copy tasks, and the edge cache, read compressed lists.
  bool compressed(bool pull) const {
    return plan_.compressed && lists(pull).compressed_offsets.bytes() > 0;
  }
  bool compressed() const { return compressed(pulling_); }
  // Filter and zero-copy tasks read packed weights (with compressed lists, when the graph has
  // them).
  bool packed(bool pull) const {
    return compressed(pull) && lists(pull).mapped_packed_weights != nullptr;
  }
  bool packed() const { return packed(pulling_); }
  std::uint32_t weight_bits(bool pull) const {
    return packed(pull) ? g_.compressed.weight_width : 32;
  }
  std::uint32_t weight_bits() const { return weight_bits(pulling_); }
  // PartitionActivity::compacted_bytes of a partition with counters c (0: raw lists).
  std::uint64_t compacted_bytes_of(const cuda::PartitionCounters& c, bool pull) const {
    if (!compressed(pull)) return 0;
    return compressed_compaction_bytes(c.list_bytes, c.active_edges, c.active_vertices, edge_bytes_,
                                       weight_bits(pull));
  }
  // A graph beyond host memory: whether partition p's lists are in its file and not in the edge
  // cache (the host tier serves pushes over the out-lists), and whether `task` reads any that
  // are.
  bool in_file(std::uint32_t p) const {
    return tier_ != nullptr && !tier_->holds(p) &&
           !(cached(false) && device_.cache.position[p] != EdgeCache::kAbsent);
  }
  bool reads_file(const Task& task) const {
    return std::any_of(task.partitions.begin(), task.partitions.end(),
                       [&](std::uint32_t p) { return in_file(p); });
  }
  // A surveyed partition p in the file, priced with its reads from it (at most one per list: the
  // survey does not count them), and its engine chosen again: a filter or compaction task, since
  // nothing reads it in place (a zero-copy or unified task compacts it instead).
  void choose_in_file(PartitionSurvey& survey, std::uint32_t p) const;
  // PartitionActivity::filter_bytes of partition p (0: edges * bytes per edge).
  std::uint64_t filter_bytes_of(const Partition& p, bool pull) const {
    if (!compressed(pull)) return 0;
    return compressed_filter_bytes(g_.compressed.range_bytes(p.first_vertex, p.last_vertex),
                                   p.num_edges(), edge_bytes_, weight_bits(pull));
  }
  // The compressed lists that a task of `engine` reads in place, if it reads any: zero-copy
  // reads them from pinned host memory, a task of cached partitions from the cache (out-lists
  // only: device_'s).
  std::optional<cuda::CompressedEdges> compressed_edges(TransferEngine engine) const;
  // Whether a task of `engine` decodes its compressed lists a thread per short list
  // (advance_compressed_tiled.cuh): those in the edge cache, under every mapping but warp.
  // Zero-copy keeps the warp per vertex, whose whole-line reads suit the link.
  bool tiles_compressed(TransferEngine engine) const {
    return engine == TransferEngine::resident && options_.load_balance != LoadBalance::warp;
  }
  cuda::OffsetEdges edges_for(TransferEngine engine) const;

  // Before an iteration's tasks: their ranges up, the work bitmap (`work`) down when a task
  // compacts, and every task's stream behind the work bitmap. Returns all tasks' ranges.
  cuda::RangeSet start_tasks(std::span<const Task> tasks, const std::uint64_t* work,
                             const char* doing);
  // Task t's ranges, of all tasks' that start_tasks returned.
  cuda::RangeSet ranges_of(const cuda::RangeSet& all, std::size_t t) const {
    return task_ranges(all, task_range_start_[t], task_range_start_[t + 1]);
  }
  // After them: every stream finished, the edges processed and lines read into `stats`, and the
  // costs adapted when EngineOptions::adapt_costs.
  void finish_tasks(IterationStats& stats, const char* doing);
  // A filter task's lists copied into the next staging buffer (decoded there when compressed),
  // and its bytes counted: the buffer's index and its edges as the advance reads them.
  struct Staged {
    unsigned buffer;
    cuda::OffsetEdges edges;
  };
  Staged stage_filter(const Task& task, IterationStats& stats);
  // Executor::stage_ahead: the first filter tasks of `next`, one per staging buffer, staged now
  // (their copies queue behind the round's kernels on the buffers' streams); not while costs
  // adapt, whose timings are per round.
  void stage_ahead(std::span<const Task> next, IterationStats& stats);
  // `task` as stage_ahead staged it, or staged now.
  Staged staged(const Task& task, IterationStats& stats);
  // Before staging tasks[t]: the next filter task of `tasks` that reads the file and is not
  // staged yet, whose partitions from_file reads ahead once tasks[t]'s are staged (none: no read
  // ahead). Each round's filter tasks run before its compaction tasks read the file.
  void read_ahead_after(std::span<const Task> tasks, std::size_t t);
  // A direct task's bytes counted, and its zero-copy span opened when timed; close_direct ends
  // the span.
  struct DirectTask {
    bool count_lines;  // a gathering zero-copy task over raw lists counts the lines it reads
    bool timed;
    std::uint64_t requests;
    double share;
  };
  DirectTask open_direct(const Task& task, IterationStats& stats, const char* doing);
  void close_direct(const DirectTask& task, const char* doing);
  // A compaction task's active vertices (the work bitmap is on the host once work_ready is), their
  // lists read from the file into host memory where they are there (the bytes and time in
  // `stats`), until end_compaction, once the task's batches are gathered.
  std::vector<vid_t> compaction_vertices(const Task& task, IterationStats& stats,
                                         const char* doing);
  void end_compaction(const Task& task);
  // The next staging buffer for a compaction batch, free once its last copy is done.
  unsigned next_compaction_buffer(const char* doing);
  // One batch of a compaction task, from the front of `active`, through staging buffer i: the
  // CPU gathers the lists (over compressed lists their bytes, which the GPU decodes), then one
  // copy up. The batch as the advance reads it.
  struct Batch {
    cuda::CompactedEdges edges;
    std::uint64_t vertices;
    const char* doing;
  };
  Batch stage_compaction(unsigned i, std::span<const vid_t> active, IterationStats& stats);

  const Graph& g_;
  // Weights move only for programs that read them (BFS on a weighted graph moves 4 bytes/edge).
  bool weighted_;
  std::uint32_t edge_bytes_;
  std::span<const Partition> parts_;
  const EngineOptions& options_;
  MemoryPlan plan_;
  DeviceGraph& device_;
  Communicator* link_;        // a rank's host link (CudaRun::link); null: one GPU
  HostTier* tier_;            // a graph beyond host memory's (CudaRun::tier); null: none
  DeviceGraph& pull_device_;  // device_, or device_.in_lists
  std::span<const Partition> pull_parts_;
  Workspace& ws_;
  std::uint64_t words_;
  std::uint64_t max_blocks_ = 1;
  std::uint64_t setup_bytes_ = 0;
  IterationStats setup_reads_;    // a tier's reads from the file to fill the edge cache
  std::uint64_t task_words_ = 0;  // words over all tasks' ranges this iteration
  unsigned next_staging_ = 0;
  std::vector<std::pair<const Task*, Staged>> ahead_;  // stage_ahead's, until taken
  const Task* read_next_ = nullptr;                    // read_ahead_after's
  bool pulling_ = false;                               // this iteration pulls
  std::vector<PartitionSurvey> surveys_;
  // The constants the survey chooses with: options_.cost, moved by each iteration's timings when
  // EngineOptions::adapt_costs (calibration.hpp, adapted).
  CostConstants cost_;
  CostAdapter costs_;

 private:
  std::uint32_t host_ranges(std::span<const Task> tasks);
  cuda::RangeSet upload_ranges(std::span<const Task> tasks);
  // Where a filter task's copies read its host bytes: the graph's arrays (pinned), or for a task
  // over partitions in the graph's file, its staging buffer's pinned host memory (from_file).
  // The byte streams' counts take the padding a decoder may read past their ends.
  struct FilterSource {
    const std::uint8_t* lists = nullptr;  // compressed lists, from the task's first
    std::uint64_t list_bytes = 0;
    const std::uint8_t* packed = nullptr;  // packed weights, from the byte of its first edge's
    std::uint64_t packed_bytes = 0;
    const vid_t* targets = nullptr;          // raw targets, from its first edge
    const std::uint32_t* weights = nullptr;  // raw weights, likewise
  };
  FilterSource in_place(const Partition& first, const Partition& last) const;
  // The task's partitions in the file read into their places in host memory (pageable), the
  // task's bytes copied from there into staging buffer i's pinned host memory, and given back;
  // then read_next_'s read started, to overlap the copies and kernels that follow.
  FilterSource from_file(const Task& task, unsigned i, const Partition& first,
                         const Partition& last, IterationStats& stats, const char* doing);
  void stage_filter_weights(unsigned i, eid_t base, eid_t edges, const FilterSource& source,
                            const char* doing);
  // Returns the bytes the task moves.
  std::uint64_t stage_filter_lists(unsigned i, const Partition& first, const Partition& last,
                                   const FilterSource& source, const char* doing);
  Batch stage_raw_batch(unsigned i, std::span<const vid_t> active, IterationStats& stats);
  Batch stage_compressed_batch(unsigned i, std::span<const vid_t> active, IterationStats& stats);
  void decode_batch(unsigned i, const CompressedBatch& batch, bool packed_weights,
                    const char* doing);

  std::vector<std::uint32_t> task_range_start_;  // first range of each task
};

}  // namespace ooc::detail
