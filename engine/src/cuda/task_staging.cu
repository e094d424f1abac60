// A CUDA run's task staging (CudaRunState, run_state.cuh), compiled once for every program: what
// a filter task copies into its staging buffer and decodes there, what a direct task counts, and
// a compaction batch gathered by the CPU into pinned staging, then copied up in one go per array.

#include "ooc/core/codec.hpp"
#include "ooc/core/parallel_copy.hpp"
#include "ooc/engine/cuda/run_state.cuh"
#include "ooc/kernels/cuda/decode.cuh"
#include "ooc/kernels/cuda/launch.cuh"
#include "ooc/transfer/compaction.hpp"
#include "ooc/transfer/placed_arena.hpp"

namespace ooc::detail {
namespace {

// n elements up to the device on stream s, when there are any.
template <class T>
void upload(T* dst, const T* src, std::size_t n, cudaStream_t s, const char* doing) {
  if (n > 0)
    OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(*src), cudaMemcpyHostToDevice, s), doing);
}

}  // namespace

CudaRunState::Staged CudaRunState::stage_filter(const Task& task, IterationStats& stats) {
  const char* doing = "a filter task";
  const unsigned i = next_staging_;
  next_staging_ = (next_staging_ + 1) % kStagingBuffers;
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  const Partition& first = parts_of(pulling_)[task.partitions.front()];
  const Partition& last = parts_of(pulling_)[task.partitions.back()];
  const eid_t base = first.first_edge;
  const eid_t edges = last.last_edge - base;
  const bool file = !pulling_ && reads_file(task);
  const FilterSource source =
      file ? from_file(task, i, first, last, stats, doing) : in_place(first, last);
  if (options_.adapt_costs) costs_.time_from(s, doing);
  stage_filter_weights(i, base, edges, source, doing);
  const std::uint64_t bytes = stage_filter_lists(i, first, last, source, doing);
  if (file) st.host_free.record(s, doing);
  if (options_.adapt_costs)
    costs_.time_to(s, {TransferEngine::filter, static_cast<double>(bytes), 0.0}, doing);
  stats.bytes[static_cast<std::size_t>(TransferEngine::filter)] += bytes;
  return {i,
          {lists(pulling_).offsets.data(), st.targets.data(),
           weighted_ ? st.weights.data() : nullptr, base}};
}

CudaRunState::FilterSource CudaRunState::in_place(const Partition& first,
                                                  const Partition& last) const {
  const Graph& g = *lists(pulling_).graph;
  const CompressedTargets& c = g.compressed;
  const eid_t base = first.first_edge;
  FilterSource source;
  if (last.last_edge == base) return source;  // an empty graph's arrays may be null
  if (compressed()) {
    source.lists = c.bytes.data() + c.offsets[first.first_vertex];
    source.list_bytes = c.range_bytes(first.first_vertex, last.last_vertex) + codec::kPadding;
  } else {
    source.targets = g.targets.data() + base;
  }
  if (weighted_ && packed()) {
    const std::uint64_t from = base * c.weight_width / 8;
    source.packed = c.packed_weights.data() + from;
    source.packed_bytes =
        codec::packed_bytes(last.last_edge, c.weight_width) - from + codec::kPadding;
  } else if (weighted_) {
    source.weights = g.weights.data() + base;
  }
  return source;
}

CudaRunState::FilterSource CudaRunState::from_file(const Task& task, unsigned i,
                                                   const Partition& first, const Partition& last,
                                                   IterationStats& stats, const char* doing) {
  Workspace::Staging& st = ws_.staging[i];
  st.host_free.synchronize(doing);  // its last copies out of the pinned buffers are done
  tier_->fetch(task.partitions, compressed(), stats);
  FilterSource pinned = in_place(first, last);
  const eid_t edges = last.last_edge - first.first_edge;
  // Each array the task's copies read, moved into the staging buffer's pinned twin.
  const auto move = [](auto*& from, auto* to, std::uint64_t bytes) {
    if (from == nullptr) return;
    parallel_copy_bytes(to, from, bytes);
    from = to;
  };
  move(pinned.lists, st.host_lists.data(), pinned.list_bytes);
  move(pinned.packed, st.host_packed.data(), pinned.packed_bytes);
  move(pinned.targets, st.host_targets.data(), edges * sizeof(vid_t));
  move(pinned.weights, st.host_weights.data(), edges * sizeof(std::uint32_t));
  tier_->release();
  if (read_next_ != nullptr) tier_->fetch_ahead(read_next_->partitions, compressed());
  read_next_ = nullptr;
  return pinned;
}

void CudaRunState::read_ahead_after(std::span<const Task> tasks, std::size_t t) {
  read_next_ = nullptr;
  if (tier_ == nullptr || pulling_) return;
  for (std::size_t u = t + 1; u < tasks.size(); ++u) {
    const Task& task = tasks[u];
    const bool staged =
        std::ranges::any_of(ahead_, [&](const auto& a) { return a.first == &task; });
    if (task.engine == TransferEngine::filter && !staged && reads_file(task)) {
      read_next_ = &task;
      return;
    }
  }
}

void CudaRunState::stage_ahead(std::span<const Task> next, IterationStats& stats) {
  ahead_.clear();
  if (options_.adapt_costs) return;
  for (const Task& task : next) {
    if (ahead_.size() == kStagingBuffers) break;
    if (task.engine != TransferEngine::filter) continue;
    read_ahead_after(next, static_cast<std::size_t>(&task - next.data()));
    ahead_.emplace_back(&task, stage_filter(task, stats));
  }
}

CudaRunState::Staged CudaRunState::staged(const Task& task, IterationStats& stats) {
  for (const auto& [ahead, staging] : ahead_) {
    if (ahead == &task) return staging;
  }
  return stage_filter(task, stats);
}

void CudaRunState::stage_filter_weights(unsigned i, eid_t base, eid_t edges,
                                        const FilterSource& source, const char* doing) {
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  if (edges > 0 && weighted_ && packed()) {
    // The task's packed weights (and the padding after the array), unpacked into staging.
    const CompressedTargets& c = g_.compressed;
    const std::uint64_t first_bit = base * c.weight_width;
    OOC_CUDA(cudaMemcpyAsync(st.packed.data(), source.packed, source.packed_bytes,
                             cudaMemcpyHostToDevice, s),
             doing);
    OOC_LAUNCH(cuda::unpack_weights_kernel, grid_for(edges), kBlockThreads, s, doing,
               st.packed.data(), first_bit % 8, edges, c.weight_width, c.weight_base,
               st.weights.data());
  } else if (edges > 0 && weighted_) {  // an empty graph's arrays may be null
    OOC_CUDA(cudaMemcpyAsync(st.weights.data(), source.weights, edges * sizeof(std::uint32_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
}

std::uint64_t CudaRunState::stage_filter_lists(unsigned i, const Partition& first,
                                               const Partition& last, const FilterSource& source,
                                               const char* doing) {
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  const eid_t base = first.first_edge;
  const eid_t edges = last.last_edge - base;
  if (edges > 0 && compressed()) {
    // The task's compressed lists and the padding after them (codec::kPadding), decoded into
    // the staged targets.
    OOC_CUDA(cudaMemcpyAsync(st.compressed.data(), source.lists, source.list_bytes,
                             cudaMemcpyHostToDevice, s),
             doing);
    OOC_LAUNCH(cuda::decode_kernel,
               warp_grid_for((edges + cuda::kDecodeEdges - 1) / cuda::kDecodeEdges), kBlockThreads,
               s, doing, st.compressed.data(), device_.compressed_offsets.data(),
               device_.offsets.data(), first.first_vertex, last.last_vertex, st.targets.data());
    return compressed_filter_bytes(source.list_bytes - codec::kPadding, edges, edge_bytes_,
                                   weight_bits());
  }
  if (edges > 0) {
    OOC_CUDA(cudaMemcpyAsync(st.targets.data(), source.targets, edges * sizeof(vid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
  return edges * edge_bytes_;
}

CudaRunState::DirectTask CudaRunState::open_direct(const Task& task, IterationStats& stats,
                                                   const char* doing) {
  const bool timed = options_.adapt_costs && task.engine == TransferEngine::zerocopy;
  std::uint64_t requests = 0, active = 0, edges = 0;
  if (task.engine == TransferEngine::zerocopy) {
    for (const std::uint32_t p : task.partitions) {
      requests += surveys_[p].activity.requests;
      active += surveys_[p].activity.active_edges;
      edges += surveys_[p].activity.edges;
    }
  }
  // A gathering zero-copy task over raw lists counts the lines it reads (a vertex may stop early).
  const bool count_lines = pulling_ && task.engine == TransferEngine::zerocopy && !compressed();
  if (!count_lines)
    stats.bytes[static_cast<std::size_t>(task.engine)] += requests * cost_.request_bytes;
  if (task.engine == TransferEngine::resident && cached()) {
    for (const std::uint32_t p : task.partitions)
      stats.cached_bytes += surveys_[p].activity.active_edges * edge_bytes_;
  }
  if (timed) costs_.time_from(stream(kDirect), doing);
  const double share = edges == 0 ? 0.0 : static_cast<double>(active) / static_cast<double>(edges);
  return {count_lines, timed, requests, share};
}

void CudaRunState::close_direct(const DirectTask& task, const char* doing) {
  if (!task.timed) return;
  costs_.time_to(stream(kDirect),
                 {TransferEngine::zerocopy, static_cast<double>(task.requests), task.share}, doing);
}

std::vector<vid_t> CudaRunState::compaction_vertices(const Task& task, IterationStats& stats,
                                                     const char* doing) {
  ws_.work_ready.synchronize(doing);  // the work bitmap is on the host now
  std::vector<vid_t> first, last, active;
  for (const std::uint32_t p : task.partitions) {
    first.push_back(parts_[p].first_vertex);
    last.push_back(parts_[p].last_vertex);
  }
  collect_vertices(ws_.host_work.data(), first, last, active);
  if (!pulling_ && reads_file(task))
    tier_->fetch_lists(task.partitions, active, compressed(), stats);
  return active;
}

void CudaRunState::end_compaction(const Task& task) {
  // The CPU gathered every batch into pinned staging: the lists read go back to the file.
  if (!pulling_ && reads_file(task)) tier_->release();
}

unsigned CudaRunState::next_compaction_buffer(const char* doing) {
  const unsigned i = next_staging_;
  next_staging_ = (next_staging_ + 1) % kStagingBuffers;
  ws_.staging[i].host_free.synchronize(doing);
  return i;
}

CudaRunState::Batch CudaRunState::stage_compaction(unsigned i, std::span<const vid_t> active,
                                                   IterationStats& stats) {
  return compressed() ? stage_compressed_batch(i, active, stats)
                      : stage_raw_batch(i, active, stats);
}

CudaRunState::Batch CudaRunState::stage_raw_batch(unsigned i, std::span<const vid_t> active,
                                                  IterationStats& stats) {
  const char* doing = "a compaction task";
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  const CompactionBuffer buffer{
      st.host_vertices.data(), st.host_begin.data(),
      st.host_targets.data(),  weighted_ ? st.host_weights.data() : nullptr,
      st.host_vertices.size(), st.host_targets.size()};
  CompactedBatch batch;
  compaction_arena(options_.device).execute([&] {
    batch = compact(*lists(pulling_).graph, active, buffer);
  });
  upload(st.vertices.data(), buffer.vertices, batch.vertices, s, doing);
  upload(st.begin.data(), buffer.offsets, batch.vertices + 1, s, doing);
  upload(st.targets.data(), buffer.targets, batch.edges, s, doing);
  if (weighted_) upload(st.weights.data(), buffer.weights, batch.edges, s, doing);
  st.host_free.record(s, doing);
  stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
      batch.edges * edge_bytes_ + batch.vertices * kCompactionIndexBytes;
  return {{st.vertices.data(), st.begin.data(), st.targets.data(),
           weighted_ ? st.weights.data() : nullptr},
          batch.vertices,
          doing};
}

// Over compressed lists the CPU gathers the lists' bytes as they are (and the weights repacked),
// and the GPU decodes them with the filter task's kernels.
CudaRunState::Batch CudaRunState::stage_compressed_batch(unsigned i, std::span<const vid_t> active,
                                                         IterationStats& stats) {
  const char* doing = "a compaction task over compressed lists";
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  const bool packed_weights = weighted_ && packed();
  const CompressedBuffer buffer{st.host_vertices.data(),
                                st.host_begin.data(),
                                st.host_list_begin.data(),
                                st.host_lists.data(),
                                packed_weights ? st.host_packed.data() : nullptr,
                                weighted_ && !packed_weights ? st.host_weights.data() : nullptr,
                                st.host_vertices.size(),
                                st.targets.size(),
                                st.host_lists.size() - codec::kPadding};
  CompressedBatch batch;
  compaction_arena(options_.device).execute([&] {
    batch = ooc::compact_compressed(g_, active, buffer);
  });
  upload(st.vertices.data(), buffer.vertices, batch.vertices, s, doing);
  upload(st.begin.data(), buffer.offsets, batch.vertices + 1, s, doing);
  upload(st.list_begin.data(), buffer.list_offsets, batch.vertices + 1, s, doing);
  upload(st.compressed.data(), buffer.lists, batch.list_bytes + codec::kPadding, s, doing);
  if (packed_weights) {
    upload(st.packed.data(), buffer.packed_weights, batch.weight_bytes + codec::kPadding, s, doing);
  } else if (weighted_) {
    upload(st.weights.data(), buffer.weights, batch.edges, s, doing);
  }
  st.host_free.record(s, doing);
  if (batch.edges > 0) decode_batch(i, batch, packed_weights, doing);
  stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
      batch.list_bytes + batch.weight_bytes + batch.vertices * kCompressedIndexBytes;
  return {{st.vertices.data(), st.begin.data(), st.targets.data(),
           weighted_ ? st.weights.data() : nullptr},
          batch.vertices,
          doing};
}

void CudaRunState::decode_batch(unsigned i, const CompressedBatch& batch, bool packed_weights,
                                const char* doing) {
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  OOC_LAUNCH(cuda::decode_kernel,
             warp_grid_for((batch.edges + cuda::kDecodeEdges - 1) / cuda::kDecodeEdges),
             kBlockThreads, s, doing, st.compressed.data(), st.list_begin.data(), st.begin.data(),
             0, static_cast<vid_t>(batch.vertices), st.targets.data());
  if (packed_weights) {
    const CompressedTargets& c = g_.compressed;
    OOC_LAUNCH(cuda::unpack_weights_kernel, grid_for(batch.edges), kBlockThreads, s, doing,
               st.packed.data(), 0, batch.edges, c.weight_width, c.weight_base, st.weights.data());
  }
}

}  // namespace ooc::detail
