#pragma once
// The CUDA backend's executor (HyTGraph §V-VI on one GPU). Per iteration:
//   survey     the priority window's two passes when the program is ordered, then the cost
//              kernel and the engine choice per partition; counters and choices come back
//   take       the admitted active vertices move from `current` into the work bitmap
//   tasks      filter tasks alternate between two staging buffers, each bound to its own
//              stream, so one task's copy runs under the other's kernel; zero-copy, resident
//              and unified tasks run on a third stream straight from where the edges are;
//              compaction runs on the CPU meanwhile (pinned staging, then one copy per batch)
//   merge      next joins current
// Vertex values, deltas and bitmaps stay on the GPU for the whole run.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <span>
#include <vector>

#include "device_graph.hpp"
#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/transfer/compaction.hpp"
#include "ooc/transfer/device_array.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc::detail {

// Algorithm 1 lines 4-12 on the GPU, one thread per partition (choose_engines.cu).
void launch_choose_engines(cuda::PartitionCounters* counters, const eid_t* partition_edges,
                           std::uint32_t partitions, TransferPolicy policy, bool resident,
                           std::uint32_t bytes_per_edge, const CostConstants& cost, unsigned blocks,
                           cudaStream_t stream);

// The program's vertex state as the survey kernels see it (see survey.cuh).
template <class P>
struct VertexView {
  const typename P::Value* values;
  const typename P::Value* deltas;
  const eid_t* offsets;
  PriorityWindow window;

  __device__ eid_t begin(vid_t v) const { return offsets[v]; }
  __device__ eid_t degree(vid_t v) const { return offsets[v + 1] - offsets[v]; }
  __device__ double delta(vid_t v) const {
    if constexpr (P::kind == ProgramKind::accumulative) {
      return static_cast<double>(deltas[v]);
    } else {
      return 0.0;
    }
  }
  __device__ double urgency(vid_t v) const {
    if constexpr (P::kind == ProgramKind::monotone) {
      return urgency_key(static_cast<double>(values[v]), false);
    } else {
      const eid_t d = degree(v);
      return urgency_key(static_cast<double>(deltas[v]) / static_cast<double>(d > 0 ? d : 1), true);
    }
  }
  __device__ bool admits(double u) const { return window.admits(u); }
  __device__ int bucket(double u) const { return window.range.bucket(u); }
  __device__ bool operator()(vid_t v) const { return window.admits(urgency(v)); }
};

// Vertices whose bit is set in a host copy of the work bitmap, within the given ranges.
void collect_vertices(const std::uint64_t* words, std::span<const vid_t> first,
                      std::span<const vid_t> last, std::vector<vid_t>& out);

inline constexpr int kBlockThreads = 256;

template <class P>
class CudaExecutor final : public ValuesExecutor<typename P::Value> {
  using Value = typename P::Value;
  using Clock = std::chrono::steady_clock;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;

  struct Staging {  // one per staging stream
    DeviceArray<vid_t> targets;
    DeviceArray<std::uint32_t> weights;
    DeviceArray<vid_t> vertices;
    DeviceArray<eid_t> begin;
    Buffer<vid_t> host_vertices, host_targets;
    Buffer<eid_t> host_begin;
    Buffer<std::uint32_t> host_weights;
    Stream stream;
    Event host_free;  // the last copy out of the host buffers has finished
  };

 public:
  CudaExecutor(const P& program, const CudaRun& run);
  void survey(std::vector<PartitionSurvey>& out) override;
  void execute(std::span<const Task> tasks, IterationStats& stats) override;
  void advance_frontier() override;
  void read_values(Value* values, Value* deltas) override;
  std::uint64_t setup_bytes() const override { return setup_bytes_; }

 private:
  VertexView<P> view(const PriorityWindow& window) const {
    return {values_.data(), deltas_.data(), device_.offsets.data(), window};
  }
  cuda::ProgramState<P> program_state() {
    return {values_.data(), deltas_.data(), next_.data(), edges_processed_.data()};
  }
  unsigned grid_for(std::uint64_t items) const {
    const std::uint64_t wanted = (items + kBlockThreads - 1) / kBlockThreads;
    return static_cast<unsigned>(std::clamp<std::uint64_t>(wanted, 1, max_blocks_));
  }
  unsigned warp_grid_for(std::uint64_t warps) const { return grid_for(warps * cuda::kWarp); }
  void choose_priority_window();
  cuda::RangeSet upload_ranges(std::span<const Task> tasks);
  cuda::OffsetEdges edges_for(Engine engine) const;
  void run_filter(const Task& task, const cuda::RangeSet& ranges, IterationStats& stats);
  void run_direct(const Task& task, const cuda::RangeSet& ranges, IterationStats& stats);
  void run_compaction(const Task& task, IterationStats& stats);
  template <class T>
  void d2h(T* dst, const T* src, std::size_t n, cudaStream_t s, const char* doing) {
    OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, s), doing);
  }

  P program_;
  const Graph& g_;
  std::span<const Partition> parts_;
  const EngineOptions& options_;
  MemoryPlan plan_;
  DeviceGraph& device_;
  std::uint64_t words_;
  std::uint64_t max_blocks_ = 1;
  std::uint64_t setup_bytes_ = 0;

  DeviceArray<Value> values_, deltas_;
  DeviceArray<std::uint64_t> current_, next_, work_;
  DeviceArray<cuda::PartitionCounters> counters_;
  DeviceArray<unsigned long long> edges_processed_, urgency_bounds_;
  DeviceArray<cuda::DeviceBucket> buckets_;
  // Task ranges: first, last (as vid_t) and word prefixes, for every task of the iteration.
  DeviceArray<vid_t> range_first_, range_last_;
  DeviceArray<std::uint64_t> range_prefix_;

  HostMemory& pinned_;
  Buffer<cuda::PartitionCounters> host_counters_;
  Buffer<unsigned long long> host_scalars_;
  Buffer<cuda::DeviceBucket> host_buckets_;
  Buffer<vid_t> host_range_first_, host_range_last_;
  Buffer<std::uint64_t> host_range_prefix_;
  Buffer<std::uint64_t> host_work_;

  std::array<Staging, kStagingBuffers> staging_;
  Stream direct_;     // zero-copy, resident, unified; survey and frontier kernels
  Event work_ready_;  // the take kernel and the range upload have finished
  unsigned next_staging_ = 0;
  PriorityWindow window_;
  std::vector<PartitionSurvey> surveys_;
  std::vector<std::uint32_t> task_range_start_;  // first range of each task
};

template <class P>
CudaExecutor<P>::CudaExecutor(const P& program, const CudaRun& run)
    : program_(program),
      g_(run.graph),
      parts_(run.partitions),
      options_(run.options),
      plan_(run.plan),
      device_(run.device),
      words_((std::uint64_t{run.graph.num_vertices()} + 63) / 64),
      values_(g_.num_vertices(), "vertex values"),
      deltas_(kAccumulative ? g_.num_vertices() : 0, "vertex deltas"),
      current_(std::max<std::uint64_t>(words_, 1), "the current frontier"),
      next_(std::max<std::uint64_t>(words_, 1), "the next frontier"),
      work_(std::max<std::uint64_t>(words_, 1), "the work bitmap"),
      counters_(std::max<std::size_t>(parts_.size(), 1), "partition counters"),
      edges_processed_(1, "a counter"),
      urgency_bounds_(2, "priority bounds"),
      buckets_(kPriorityBuckets, "priority buckets"),
      range_first_(parts_.size() + 1, "task ranges"),
      range_last_(parts_.size() + 1, "task ranges"),
      range_prefix_(parts_.size() + 2, "task ranges"),
      pinned_(pinned_memory(run.options.device)),
      host_counters_(Buffer<cuda::PartitionCounters>::allocate(
          std::max<std::size_t>(parts_.size(), 1), pinned_)),
      host_scalars_(Buffer<unsigned long long>::allocate(2, pinned_)),
      host_buckets_(Buffer<cuda::DeviceBucket>::allocate(kPriorityBuckets, pinned_)),
      host_range_first_(Buffer<vid_t>::allocate(parts_.size() + 1, pinned_)),
      host_range_last_(Buffer<vid_t>::allocate(parts_.size() + 1, pinned_)),
      host_range_prefix_(Buffer<std::uint64_t>::allocate(parts_.size() + 2, pinned_)) {
  OOC_CUDA(cudaSetDevice(options_.device), "selecting the GPU");
  int sms = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options_.device),
           "reading the GPU's SM count");
  max_blocks_ = static_cast<std::uint64_t>(sms) * 8;  // 8 blocks of 256 threads fill an SM
  const bool weighted = g_.weighted();
  for (Staging& s : staging_) {
    s.targets = DeviceArray<vid_t>(plan_.staging_edges, "staging");
    s.weights = DeviceArray<std::uint32_t>(weighted ? plan_.staging_edges : 0, "staging");
    s.vertices = DeviceArray<vid_t>(plan_.staging_vertices, "compaction staging");
    s.begin = DeviceArray<eid_t>(plan_.staging_vertices + 1, "compaction staging");
    if (options_.transfer == TransferPolicy::compaction ||
        options_.transfer == TransferPolicy::hybrid) {
      s.host_vertices = Buffer<vid_t>::allocate(plan_.staging_vertices, pinned_);
      s.host_begin = Buffer<eid_t>::allocate(plan_.staging_vertices + 1, pinned_);
      s.host_targets = Buffer<vid_t>::allocate(plan_.staging_edges, pinned_);
      s.host_weights = Buffer<std::uint32_t>::allocate(weighted ? plan_.staging_edges : 0, pinned_);
    }
    s.host_free.record(s.stream.get(), "preparing staging");
  }
  if (options_.transfer == TransferPolicy::compaction ||
      options_.transfer == TransferPolicy::hybrid) {
    host_work_ = Buffer<std::uint64_t>::allocate(std::max<std::uint64_t>(words_, 1), pinned_);
  }
  if (plan_.in_memory) setup_bytes_ = device_.make_resident();
  if (options_.transfer == TransferPolicy::unified && !plan_.in_memory) device_.make_managed();

  // Initial values and frontier, computed on the host once and copied.
  std::vector<Value> values(g_.num_vertices()), deltas(kAccumulative ? g_.num_vertices() : 0);
  std::vector<std::uint64_t> frontier(words_, 0);
  for (vid_t v = 0; v < g_.num_vertices(); ++v) {
    values[v] = program_.init(v);
    if constexpr (kAccumulative) deltas[v] = program_.init_delta(v);
    if (program_.active_at_start(v)) frontier[v >> 6] |= std::uint64_t{1} << (v & 63);
  }
  const char* doing = "initialising the vertex values";
  OOC_CUDA(cudaMemcpy(values_.data(), values.data(), values_.bytes(), cudaMemcpyHostToDevice),
           doing);
  if constexpr (kAccumulative) {
    OOC_CUDA(cudaMemcpy(deltas_.data(), deltas.data(), deltas_.bytes(), cudaMemcpyHostToDevice),
             doing);
  }
  OOC_CUDA(cudaMemset(current_.data(), 0, current_.bytes()), doing);
  if (words_ > 0)
    OOC_CUDA(cudaMemcpy(current_.data(), frontier.data(), words_ * 8, cudaMemcpyHostToDevice),
             doing);
  OOC_CUDA(cudaMemset(next_.data(), 0, next_.bytes()), doing);
  OOC_CUDA(cudaMemset(edges_processed_.data(), 0, edges_processed_.bytes()), doing);
}

template <class P>
void CudaExecutor<P>::choose_priority_window() {
  window_ = PriorityWindow{};
  if (!options_.priority || !is_ordered<P>() || words_ == 0) return;
  const char* doing = "choosing the priority window";
  const cudaStream_t s = direct_.get();
  OOC_CUDA(cudaMemsetAsync(urgency_bounds_.data(), 0xff, sizeof(unsigned long long), s), doing);
  OOC_CUDA(cudaMemsetAsync(urgency_bounds_.data() + 1, 0, sizeof(unsigned long long), s), doing);
  cuda::urgency_range_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(window_), urgency_bounds_.data(),
      urgency_bounds_.data() + 1);
  check_launch("urgency_range_kernel", doing);
  d2h(host_scalars_.data(), urgency_bounds_.data(), 2, s, doing);
  direct_.synchronize(doing);
  if (host_scalars_[0] > host_scalars_[1]) return;  // nothing active
  const UrgencyRange range{cuda::from_order_key(host_scalars_[0]),
                           cuda::from_order_key(host_scalars_[1])};
  OOC_CUDA(cudaMemsetAsync(buckets_.data(), 0, buckets_.bytes(), s), doing);
  PriorityWindow histogram;
  histogram.range = range;
  cuda::urgency_histogram_kernel<kPriorityBuckets><<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(histogram), buckets_.data());
  check_launch("urgency_histogram_kernel", doing);
  d2h(host_buckets_.data(), buckets_.data(), kPriorityBuckets, s, doing);
  direct_.synchronize(doing);
  std::array<BucketLoad, kPriorityBuckets> loads{};
  for (int b = 0; b < kPriorityBuckets; ++b)
    loads[static_cast<std::size_t>(b)] = {host_buckets_[b].edges, host_buckets_[b].mass};
  window_ = choose_window(range, loads, kAccumulative,
                          priority_fraction(options_.priority_fraction, kAccumulative),
                          options_.priority_min_edges);
}

template <class P>
void CudaExecutor<P>::survey(std::vector<PartitionSurvey>& out) {
  choose_priority_window();
  const char* doing = "surveying the partitions";
  const cudaStream_t s = direct_.get();
  const auto partitions = static_cast<std::uint32_t>(parts_.size());
  if (partitions == 0) return;
  OOC_CUDA(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), s), doing);
  OOC_CUDA(cudaMemset2DAsync(&counters_.data()->most_urgent, sizeof(cuda::PartitionCounters), 0xff,
                             sizeof(unsigned long long), partitions, s),
           doing);
  cuda::survey_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(window_), device_.partition_first.data(), partitions,
      options_.cost.request_bytes, g_.weighted() ? 2u : 1u, counters_.data());
  check_launch("survey_kernel", doing);
  launch_choose_engines(counters_.data(), device_.partition_edges.data(), partitions,
                        options_.transfer, plan_.in_memory, g_.bytes_per_edge(), options_.cost,
                        grid_for(partitions), s);
  d2h(host_counters_.data(), counters_.data(), partitions, s, doing);
  direct_.synchronize(doing);
  for (std::uint32_t i = 0; i < partitions; ++i) {
    const cuda::PartitionCounters& c = host_counters_[i];
    PartitionSurvey& survey = out[i];
    survey.activity = {parts_[i].num_edges(), c.active_vertices, c.active_edges, c.requests};
    survey.engine = static_cast<Engine>(c.engine);
    survey.priority = kAccumulative           ? c.delta
                      : c.active_vertices > 0 ? -cuda::from_order_key(c.most_urgent)
                                              : 0.0;
  }
  surveys_ = out;
}

template <class P>
cuda::RangeSet CudaExecutor<P>::upload_ranges(std::span<const Task> tasks) {
  // Each task's partitions as vertex ranges, neighbouring partitions merged; all tasks' ranges
  // go up in one copy.
  task_range_start_.clear();
  std::uint32_t r = 0;
  std::uint64_t words = 0;
  for (const Task& task : tasks) {
    task_range_start_.push_back(r);
    for (std::size_t k = 0; k < task.partitions.size(); ++k) {
      const Partition& p = parts_[task.partitions[k]];
      if (k > 0 && task.partitions[k - 1] + 1 == task.partitions[k]) {
        host_range_last_[r - 1] = p.last_vertex;
        continue;
      }
      host_range_first_[r] = p.first_vertex;
      host_range_last_[r] = p.last_vertex;
      ++r;
    }
  }
  task_range_start_.push_back(r);
  for (std::uint32_t i = 0; i < r; ++i) {
    host_range_prefix_[i] = words;
    words += (std::uint64_t{host_range_last_[i]} + 63) / 64 - host_range_first_[i] / 64;
  }
  host_range_prefix_[r] = words;
  const char* doing = "uploading the task ranges";
  const cudaStream_t s = direct_.get();
  OOC_CUDA(cudaMemcpyAsync(range_first_.data(), host_range_first_.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(range_last_.data(), host_range_last_.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(range_prefix_.data(), host_range_prefix_.data(),
                           (r + 1) * sizeof(std::uint64_t), cudaMemcpyHostToDevice, s),
           doing);
  return {range_first_.data(), range_last_.data(), range_prefix_.data(), r};
}

// The ranges of task t alone, as a view into the uploaded set.
inline cuda::RangeSet task_ranges(const cuda::RangeSet& all, std::uint32_t first,
                                  std::uint32_t end) {
  return {all.first + first, all.last + first, all.prefix + first, end - first};
}

template <class P>
cuda::OffsetEdges CudaExecutor<P>::edges_for(Engine engine) const {
  switch (engine) {
    case Engine::resident:
      return {device_.offsets.data(), device_.resident_targets.data(),
              g_.weighted() ? device_.resident_weights.data() : nullptr, 0};
    case Engine::unified:
      return {device_.offsets.data(), device_.managed_targets,
              g_.weighted() ? device_.managed_weights : nullptr, 0};
    default:
      return {device_.offsets.data(), device_.mapped_targets,
              g_.weighted() ? device_.mapped_weights : nullptr, 0};
  }
}

template <class P>
void CudaExecutor<P>::execute(std::span<const Task> tasks, IterationStats& stats) {
  const char* doing = "running the iteration's tasks";
  const cudaStream_t s = direct_.get();
  cuda::take_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), work_.data(), g_.num_vertices(), view(window_), window_.deferring);
  check_launch("take_kernel", doing);
  const cuda::RangeSet all = upload_ranges(tasks);
  const bool compacting = std::any_of(tasks.begin(), tasks.end(),
                                      [](const Task& t) { return t.engine == Engine::compaction; });
  if (compacting) d2h(host_work_.data(), work_.data(), words_, s, doing);
  work_ready_.record(s, doing);
  for (Staging& st : staging_)
    work_ready_.wait_in(st.stream.get(), doing);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const cuda::RangeSet ranges = task_ranges(all, task_range_start_[t], task_range_start_[t + 1]);
    switch (tasks[t].engine) {
      case Engine::filter:
        run_filter(tasks[t], ranges, stats);
        break;
      case Engine::compaction:
        break;  // last: its CPU work overlaps everything queued above
      default:
        run_direct(tasks[t], ranges, stats);
        break;
    }
  }
  for (const Task& task : tasks) {
    if (task.engine == Engine::compaction) run_compaction(task, stats);
  }
  direct_.synchronize(doing);
  for (Staging& st : staging_)
    st.stream.synchronize(doing);
  OOC_CUDA(cudaMemcpy(host_scalars_.data(), edges_processed_.data(), sizeof(unsigned long long),
                      cudaMemcpyDeviceToHost),
           doing);
  OOC_CUDA(cudaMemset(edges_processed_.data(), 0, sizeof(unsigned long long)), doing);
  stats.edges_processed += host_scalars_[0];
}

template <class P>
void CudaExecutor<P>::run_filter(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a filter task";
  Staging& st = staging_[next_staging_];
  next_staging_ = (next_staging_ + 1) % kStagingBuffers;
  const cudaStream_t s = st.stream.get();
  const eid_t base = parts_[task.partitions.front()].first_edge;
  const eid_t edges = parts_[task.partitions.back()].last_edge - base;
  if (edges > 0) {  // an empty graph's arrays may be null
    OOC_CUDA(cudaMemcpyAsync(st.targets.data(), g_.targets.data() + base, edges * sizeof(vid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
  if (g_.weighted() && edges > 0) {
    OOC_CUDA(cudaMemcpyAsync(st.weights.data(), g_.weights.data() + base,
                             edges * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s),
             doing);
  }
  stats.bytes[static_cast<std::size_t>(Engine::filter)] += edges * g_.bytes_per_edge();
  const cuda::OffsetEdges staged{device_.offsets.data(), st.targets.data(),
                                 g_.weighted() ? st.weights.data() : nullptr, base};
  const std::uint64_t words =
      host_range_prefix_[task_range_start_.back()];  // upper bound on any task's words
  cuda::advance_ranges_kernel<P><<<warp_grid_for(words), kBlockThreads, 0, s>>>(
      program_, program_state(), ranges, work_.data(), staged);
  check_launch("advance_ranges_kernel", doing);
  if (task.reprocess) {
    cuda::reprocess_ranges_kernel<<<warp_grid_for(words), kBlockThreads, 0, s>>>(
        program_, program_state(), ranges, view(window_), staged);
    check_launch("reprocess_ranges_kernel", doing);
  }
}

template <class P>
void CudaExecutor<P>::run_direct(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a zero-copy task";
  std::uint64_t bytes = 0;
  if (task.engine == Engine::zerocopy) {
    for (const std::uint32_t p : task.partitions)
      bytes += surveys_[p].activity.requests * options_.cost.request_bytes;
  }
  stats.bytes[static_cast<std::size_t>(task.engine)] += bytes;
  const std::uint64_t words = host_range_prefix_[task_range_start_.back()];
  cuda::advance_ranges_kernel<P><<<warp_grid_for(words), kBlockThreads, 0, direct_.get()>>>(
      program_, program_state(), ranges, work_.data(), edges_for(task.engine));
  check_launch("advance_ranges_kernel", doing);
}

template <class P>
void CudaExecutor<P>::run_compaction(const Task& task, IterationStats& stats) {
  const char* doing = "a compaction task";
  const auto start = Clock::now();
  work_ready_.synchronize(doing);  // the work bitmap is on the host now
  std::vector<vid_t> first, last, active;
  for (const std::uint32_t p : task.partitions) {
    first.push_back(parts_[p].first_vertex);
    last.push_back(parts_[p].last_vertex);
  }
  collect_vertices(host_work_.data(), first, last, active);
  for (std::size_t done = 0; done < active.size();) {
    Staging& st = staging_[next_staging_];
    next_staging_ = (next_staging_ + 1) % kStagingBuffers;
    st.host_free.synchronize(doing);
    const CompactionBuffer buffer{
        st.host_vertices.data(), st.host_begin.data(),
        st.host_targets.data(),  g_.weighted() ? st.host_weights.data() : nullptr,
        st.host_vertices.size(), st.host_targets.size()};
    const CompactedBatch batch = compact(g_, std::span<const vid_t>(active).subspan(done), buffer);
    const cudaStream_t s = st.stream.get();
    OOC_CUDA(cudaMemcpyAsync(st.vertices.data(), buffer.vertices, batch.vertices * sizeof(vid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
    OOC_CUDA(cudaMemcpyAsync(st.begin.data(), buffer.offsets, (batch.vertices + 1) * sizeof(eid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
    if (batch.edges > 0) {
      OOC_CUDA(cudaMemcpyAsync(st.targets.data(), buffer.targets, batch.edges * sizeof(vid_t),
                               cudaMemcpyHostToDevice, s),
               doing);
    }
    if (g_.weighted() && batch.edges > 0) {
      OOC_CUDA(cudaMemcpyAsync(st.weights.data(), buffer.weights,
                               batch.edges * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s),
               doing);
    }
    st.host_free.record(s, doing);
    stats.bytes[static_cast<std::size_t>(Engine::compaction)] +=
        batch.edges * g_.bytes_per_edge() + batch.vertices * kCompactionIndexBytes;
    const cuda::CompactedEdges compacted{st.vertices.data(), st.begin.data(), st.targets.data(),
                                         g_.weighted() ? st.weights.data() : nullptr};
    cuda::advance_compacted_kernel<P><<<warp_grid_for(batch.vertices), kBlockThreads, 0, s>>>(
        program_, program_state(), compacted, batch.vertices);
    check_launch("advance_compacted_kernel", doing);
    done += batch.vertices;
  }
  stats.transfer_seconds += std::chrono::duration<double>(Clock::now() - start).count();
}

template <class P>
void CudaExecutor<P>::advance_frontier() {
  const char* doing = "merging the frontier";
  cuda::merge_frontier_kernel<<<grid_for(words_), kBlockThreads, 0, direct_.get()>>>(
      current_.data(), next_.data(), words_);
  check_launch("merge_frontier_kernel", doing);
  direct_.synchronize(doing);
}

template <class P>
void CudaExecutor<P>::read_values(Value* values, Value* deltas) {
  const char* doing = "reading the results back";
  OOC_CUDA(cudaMemcpy(values, values_.data(), values_.bytes(), cudaMemcpyDeviceToHost), doing);
  if constexpr (kAccumulative)
    OOC_CUDA(cudaMemcpy(deltas, deltas_.data(), deltas_.bytes(), cudaMemcpyDeviceToHost), doing);
}

}  // namespace ooc::detail
