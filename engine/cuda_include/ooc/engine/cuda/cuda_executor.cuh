#pragma once
// The CUDA backend's executor (HyTGraph §V-VI on one GPU). Per iteration:
//   survey     the priority window's two passes when the program is ordered, then the cost
//              kernel and the engine choice per partition; counters and choices come back
//   take       the admitted active vertices move from `current` into the work bitmap
//   tasks      filter tasks alternate between two staging buffers, each bound to its own
//              stream, so one task's copy runs under the other's kernel; zero-copy, resident
//              and unified tasks run on a third stream straight from where the edges are;
//              compaction runs on the CPU meanwhile (pinned staging, then one copy per batch),
//              its oneTBB threads bound with hwloc to the GPU's NUMA node (placed_arena.hpp)
//   merge      next joins current
//   exchange   a rank of a distributed run: the ranks agree on the vertex arrays over NCCL
//              (exchange.cuh), and only the rank's own vertices stay in its frontier
// When the run may pull (direction.hpp), the survey also counts the vertices that would gather,
// and an iteration that pulls runs the same tasks over their lists with the gather kernels
// (advance_pull.cuh) instead of the frontier's with the advance: their own lists on a symmetric
// graph, their in-lists (DeviceGraph::in_lists) on a directed one.
// Vertex values, deltas and bitmaps stay on the GPU for the whole run. Out of core, partitions
// in the edge cache (edge_cache.hpp) run as resident tasks, straight from device memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "ooc/core/codec.hpp"
#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/engine/direction.hpp"
#include "ooc/engine/edge_cache.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/pull.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/advance_pull.cuh"
#include "ooc/kernels/cuda/advance_raval.cuh"
#include "ooc/kernels/cuda/decode.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/transfer/compaction.hpp"
#include "ooc/transfer/device_array.hpp"
#include "ooc/transfer/pinned_memory.hpp"
#include "ooc/transfer/placed_arena.hpp"

namespace ooc::detail {

// Algorithm 1 lines 4-12 on the GPU, one thread per partition (choose_engines.cu). Every
// partition is resident in in-memory mode, and those `cached` marks (when not null) otherwise.
void launch_choose_engines(cuda::PartitionCounters* counters, const eid_t* partition_edges,
                           std::uint32_t partitions, TransferPolicy policy, bool resident,
                           const std::uint8_t* cached, const std::uint64_t* compressed,
                           std::uint32_t bytes_per_edge, std::uint32_t weight_bits,
                           const CostConstants& cost, unsigned blocks, cudaStream_t stream);

// The program's vertex state as the survey kernels see it (see survey.cuh).
template <class P>
struct VertexView {
  const typename P::Value* values;
  const typename P::Value* deltas;
  const eid_t* offsets;
  const eid_t* coffsets;      // compressed lists' offsets, when zero-copy reads them; else null
  std::uint32_t weight_bits;  // bits per weight the program reads (32 raw, fewer packed; 0: none)
  PriorityWindow window;

  __device__ eid_t degree(vid_t v) const { return offsets[v + 1] - offsets[v]; }
  __device__ std::uint64_t list_bytes(vid_t v) const {
    return coffsets == nullptr ? 0 : coffsets[v + 1] - coffsets[v];
  }
  __device__ std::uint64_t requests(vid_t v, std::uint32_t line, std::uint64_t& held) const {
    const std::uint64_t lists =
        coffsets == nullptr
            ? lines_spanned(offsets[v] * sizeof(vid_t), degree(v) * sizeof(vid_t), line)
            : window_lines(coffsets[v], coffsets[v + 1] - coffsets[v], line, held);
    return lists + (weight_bits == 0 ? 0 : weight_lines(offsets[v], degree(v), weight_bits, line));
  }
  __device__ std::uint64_t last_line(vid_t v, std::uint32_t line) const {
    if (coffsets == nullptr || coffsets[v + 1] == coffsets[v]) return 0;
    return (coffsets[v + 1] - 1) / line + 1;
  }
  __device__ double delta(vid_t v) const {
    if constexpr (P::kind == ProgramKind::accumulative) {
      return static_cast<double>(deltas[v]);
    } else {
      return 0.0;
    }
  }
  __device__ double urgency(vid_t v) const {
    constexpr bool accumulative = P::kind == ProgramKind::accumulative;
    return ooc::urgency<P>(values[v], accumulative ? deltas[v] : typename P::Value{}, degree(v));
  }
  __device__ bool admits(double u) const { return window.admits(u); }
  __device__ int bucket(double u) const { return window.range.bucket(u); }
  __device__ bool operator()(vid_t v) const { return window.admits(urgency(v)); }
};

// The pull direction's gathering vertices: those with a list that may still change (above the
// floor, when the program has one).
template <class Value>
struct GatherTest {
  const Value* values;
  const eid_t* offsets;
  Value floor;
  bool has_floor;
  __device__ bool operator()(vid_t v) const {
    return offsets[v + 1] > offsets[v] && (!has_floor || floor < values[v]);
  }
};

// Vertices whose bit is set in a host copy of the work bitmap, within the given ranges.
void collect_vertices(const std::uint64_t* words, std::span<const vid_t> first,
                      std::span<const vid_t> last, std::vector<vid_t>& out);

inline constexpr int kBlockThreads = 256;
static_assert(kBlockThreads == cuda::kTileThreads, "grid_for sizes the tiled kernels' grids too");

template <class P>
class CudaExecutor final : public ValuesExecutor<typename P::Value> {
  using Value = typename P::Value;
  using Clock = std::chrono::steady_clock;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;
  static constexpr unsigned kDirect = kStagingBuffers;  // the stream index of direct tasks
  // Workspace scalars: [0] edges processed, [1..2] urgency bounds, [3] lines that gathering
  // zero-copy tasks read, [4..] heavy queue counters.
  static constexpr unsigned kLinesRead = 3;
  static constexpr unsigned kHeavyCounters = 4;
  static_assert(sizeof(cuda::HeavyItem<Message<P>>) <= kHeavyItemBytes,
                "the memory plan's queue size");
  static_assert(sizeof(cuda::HeavyItem<vid_t>) <= sizeof(cuda::HeavyItem<Message<P>>),
                "gathers queue their long lists in the same queues");
  static constexpr bool kCanPull = PullProgram<P>;

 public:
  CudaExecutor(const P& program, const CudaRun& run);
  ScheduleFacts facts() const override {
    return {.vertices = g_.num_vertices(),
            .windowed = options_.priority && is_ordered<P>(),
            .accumulative = kAccumulative,
            .priority_fraction = options_.priority_fraction,
            .priority_min_edges = options_.priority_min_edges,
            .may_pull = may_pull_,
            .must_pull = options_.direction == Direction::pull,
            .pull_floor = PullFloorProgram<P>,
            .in_memory = plan_.in_memory,
            .edge_bytes = edge_bytes_,
            .request_bytes = cost_.request_bytes};  // adapt_costs moves the link's, not the line
  }
  // The priority window's two passes (survey.cuh), each read back.
  std::optional<UrgencyRange> urgency_range() override;
  void urgency_loads(const UrgencyRange& range, std::span<BucketLoad> loads) override;
  void survey(const PriorityWindow& window, std::span<PartitionSurvey> out) override;
  // The floor, the gathering vertices, their counters and engines.
  void survey_pull(std::span<PartitionSurvey> out) override;
  // Also adds the iteration's surveys to the edge cache's measure of reuse (device_.moved).
  void set_direction(bool pull) override;
  void execute(std::span<const Task> tasks, IterationStats& stats) override;
  void exchange(Communicator& host, IterationStats& stats) override;
  void advance_frontier() override;
  void finish(Communicator& host) override;
  void read_values(Value* values, Value* deltas) override;
  void report_setup(RunStats& stats) const override {
    stats.setup_bytes = setup_bytes_;
    if (!cached(false)) return;
    stats.cache_bytes = device_.cache.bytes();
    stats.cache_partitions = static_cast<std::uint32_t>(device_.cache.partitions.size());
  }

 private:
  // The vertices as a survey sees them, over the out-lists or (`pull`) the pull direction's.
  VertexView<P> view(const PriorityWindow& window, bool pull = false) const {
    return {values_.data(),
            deltas_.data(),
            lists(pull).offsets.data(),
            compressed(pull) ? lists(pull).compressed_offsets.data() : nullptr,
            weighted_ ? weight_bits(pull) : 0,
            window};
  }
  // `lists`: the compressed lists a kernel reads in place, if any (its heavy lists read them).
  template <class Msg>
  cuda::HeavyQueue<Msg> heavy_queue(unsigned stream, const cuda::CompressedEdges& lists) {
    return {reinterpret_cast<cuda::HeavyItem<Msg>*>(ws_.heavy[stream].data()),
            ws_.scalars.data() + kHeavyCounters + stream, ws_.heavy_capacity, lists};
  }
  cuda::ProgramState<P> program_state(unsigned stream, const cuda::CompressedEdges& lists = {}) {
    return {values_.data(), deltas_.data(), next_.data(), ws_.scalars.data(),
            heavy_queue<Message<P>>(stream, lists)};
  }
  // The gathers' state on stream i; `count_lines`: a zero-copy task counts the lines it reads.
  cuda::PullState pull_state(unsigned stream, bool count_lines,
                             const cuda::CompressedEdges& lists = {}) {
    return {next_.data(), ws_.scalars.data(),
            count_lines ? ws_.scalars.data() + kLinesRead : nullptr,
            heavy_queue<vid_t>(stream, lists)};
  }
  cudaStream_t stream(unsigned i) const { return ws_.streams[i].get(); }
  unsigned grid_for(std::uint64_t items) const {
    const std::uint64_t wanted = (items + kBlockThreads - 1) / kBlockThreads;
    return static_cast<unsigned>(std::clamp<std::uint64_t>(wanted, 1, max_blocks_));
  }
  unsigned warp_grid_for(std::uint64_t warps) const { return grid_for(warps * cuda::kWarp); }
  // launch(mapping) with the block kernels' Mapping of options_.load_balance (not warp).
  template <class Launch>
  void with_block_mapping(Launch&& launch) const {
    if (options_.load_balance == LoadBalance::ordered) {
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
  // The compressed lists that a task of `engine` reads in place, if it reads any: zero-copy
  // reads them from pinned host memory, a task of cached partitions from the cache (out-lists
  // only: device_'s).
  std::optional<cuda::CompressedEdges> compressed_edges(TransferEngine engine) const;
  // PartitionActivity::filter_bytes of partition p (0: edges * bytes per edge).
  std::uint64_t filter_bytes_of(const Partition& p, bool pull) const {
    if (!compressed(pull)) return 0;
    return compressed_filter_bytes(g_.compressed.range_bytes(p.first_vertex, p.last_vertex),
                                   p.num_edges(), edge_bytes_, weight_bits(pull));
  }
  // Surveys from the counters read back (`pull`: of the gathering vertices).
  void read_surveys(const cuda::PartitionCounters* counters, std::span<PartitionSurvey> out,
                    bool pull) const;
  cuda::RangeSet upload_ranges(std::span<const Task> tasks);
  cuda::OffsetEdges edges_for(TransferEngine engine) const;
  // The advance over a task's ranges on stream i, in the chosen load-balancing mapping, then
  // the heavy vertices it queued; in an iteration that pulls, the gather over the ranges'
  // gathering vertices instead (`count_lines`: a zero-copy task's, always the warp mapping).
  // `cut`: a gather reads only that part of each list (cache blocking).
  template <class Source>
  void advance_ranges(unsigned i, const cuda::RangeSet& ranges, Source source,
                      const cuda::OffsetEdges& edges, const char* doing, bool count_lines = false,
                      cuda::ListCut cut = {});
  void advance_compacted(unsigned i, const cuda::CompactedEdges& batch, std::uint64_t count,
                         const char* doing);
  // After an advance kernel on stream i: the heavy vertices it queued (their compressed lists,
  // if any, ending at lists_end), then an empty queue.
  void drain_heavy(unsigned i, const char* doing) { drain_heavy(i, {}, doing); }
  void drain_heavy(unsigned i, const cuda::CompressedEdges& lists, const char* doing);
  void drain_gathers(unsigned i, const cuda::CompressedEdges& lists, bool count_lines,
                     const char* doing);
  // What a gather reads, combines and lands (pull.hpp).
  auto pull_rule() const requires PullProgram<P> {
    return PullRule<P>{program_, kAccumulative ? sent_.data() : values_.data(),
                       kAccumulative ? deltas_.data() : values_.data(), floor_, has_floor_};
  }
  // The bitmap of this iteration's work: the frontier taken (push), or the gathering vertices.
  std::uint64_t* work_bits() { return pulling_ ? gather_.data() : work_.data(); }
  void run_filter(const Task& task, const cuda::RangeSet& ranges, IterationStats& stats);
  void run_direct(const Task& task, const cuda::RangeSet& ranges, IterationStats& stats);
  template <class Source>
  void advance_direct(const Task& task, const cuda::RangeSet& ranges, Source source,
                      bool count_lines, const char* doing);
  void run_compaction(const Task& task, IterationStats& stats);
  // One batch of a compaction task over compressed lists, from the front of `active`, through
  // staging buffer i: the CPU gathers the lists' bytes, the GPU decodes and advances them.
  // Returns the vertices it took.
  std::size_t compact_compressed(unsigned i, std::span<const vid_t> active, IterationStats& stats);
  template <class T>
  void d2h(T* dst, const T* src, std::size_t n, cudaStream_t s, const char* doing) {
    OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, s), doing);
  }

  P program_;
  const Graph& g_;
  // Weights move only for programs that read them (BFS on a weighted graph moves 4 bytes/edge).
  bool weighted_ = P::needs_weights && g_.weighted();
  std::uint32_t edge_bytes_ = weighted_ ? 8u : 4u;
  std::span<const Partition> parts_;
  const EngineOptions& options_;
  MemoryPlan plan_;
  DeviceGraph& device_;
  DeviceGraph& pull_device_;  // device_, or device_.in_lists
  std::span<const Partition> pull_parts_;
  Workspace& ws_;
  std::uint64_t words_;
  std::uint64_t max_blocks_ = 1;
  std::uint64_t setup_bytes_ = 0;
  std::uint64_t task_words_ = 0;  // words over all tasks' ranges this iteration
  DeviceArray<Value> values_, deltas_;
  DeviceArray<std::uint64_t> current_, next_, work_;
  // A rank of a distributed run: the values (monotone) or deltas (accumulative) as the ranks
  // agreed on them last, and this rank's change of the deltas since.
  bool ranked_ = device_.nccl != nullptr;
  DeviceArray<Value> agreed_, change_;
  // The sparse exchange: this rank's changed pairs, every rank's as gathered, and their count.
  std::uint64_t pair_capacity_ = 0;
  DeviceArray<std::uint64_t> own_pairs_, all_pairs_;
  DeviceArray<unsigned long long> pair_count_;
  unsigned next_staging_ = 0;
  bool taken_ = false;  // this iteration's work bitmap is taken (execute() may run several times)
  PriorityWindow window_;
  std::vector<PartitionSurvey> surveys_;
  std::vector<std::uint32_t> task_range_start_;  // first range of each task
  // The pull direction: whether this run may pull and this iteration does, the vertices that
  // gather, an accumulative program's messages, the floor (PullFloorProgram), the surveys.
  bool may_pull_ = kCanPull && plan_.pull;
  bool pulling_ = false;
  DeviceArray<std::uint64_t> gather_;
  DeviceArray<Value> sent_;
  Value floor_{};
  bool has_floor_ = false;
  bool gathering_counted_ = false;  // the gathering counters hold this run's (no floor)
  std::vector<PartitionSurvey> pull_surveys_;
  // The constants the survey chooses with: options_.cost, moved by each iteration's timings when
  // EngineOptions::adapt_costs (calibration.hpp, adapted).
  CostConstants cost_ = options_.cost;
  // adapt_costs: this run of tasks' timed spans, a start and an end event each after a base event
  // that precedes every task on every stream, and what each moved.
  struct Timed {
    TransferEngine engine;
    double amount;  // filter: bytes; zero-copy: requests
    double share;   // zero-copy: active edges over the partitions' edges
  };
  std::vector<Event> timers_;  // [0] the base, then two per span
  std::vector<Timed> timed_;
  void time_from(cudaStream_t s, const char* doing);
  void time_to(cudaStream_t s, const Timed& what, const char* doing);
  void adapt_costs(const char* doing);
};

inline bool uses_compaction(TransferPolicy p) {
  return p == TransferPolicy::compaction || p == TransferPolicy::hybrid;
}

template <class P>
CudaExecutor<P>::CudaExecutor(const P& program, const CudaRun& run)
    : program_(program),
      g_(run.graph),
      parts_(run.partitions),
      options_(run.options),
      plan_(run.plan),
      device_(run.device),
      pull_device_(run.device.in_lists ? *run.device.in_lists : run.device),
      pull_parts_(run.pull_partitions),
      ws_(run.device.workspace(run.plan, uses_compaction(run.options.transfer),
                               sizeof(cuda::HeavyItem<Message<P>>))),
      words_((std::uint64_t{run.graph.num_vertices()} + 63) / 64),
      values_(g_.num_vertices(), "vertex values"),
      deltas_(kAccumulative ? g_.num_vertices() : 0, "vertex deltas"),
      current_(std::max<std::uint64_t>(words_, 1), "the current frontier"),
      next_(std::max<std::uint64_t>(words_, 1), "the next frontier"),
      work_(std::max<std::uint64_t>(words_, 1), "the work bitmap") {
  const char* doing = "initialising the vertex values";
  OOC_CUDA(cudaSetDevice(options_.device), doing);
  int sms = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options_.device), doing);
  max_blocks_ = static_cast<std::uint64_t>(sms) * 8;  // 8 blocks of 256 threads fill an SM
  const bool in_lists = may_pull_ && &pull_device_ != &device_;
  if (plan_.in_memory) {
    setup_bytes_ = device_.make_resident();
    if (in_lists) setup_bytes_ += pull_device_.make_resident();
    device_.group_lists(parts_, plan_.pull_blocks, ws_.staging[0]);
  } else if (plan_.cache_bytes > 0) {
    setup_bytes_ = device_.fill_cache(parts_, plan_.cache_bytes, weighted_, compressed(false));
  }
  if (!plan_.in_memory) device_.moved.resize(parts_.size());
  if (options_.transfer == TransferPolicy::unified && !plan_.in_memory) {
    device_.make_managed();
    if (in_lists) pull_device_.make_managed();
  }
  if (may_pull_) {
    gather_ = DeviceArray<std::uint64_t>(std::max<std::uint64_t>(words_, 1), "gathering vertices");
    if constexpr (kAccumulative) sent_ = DeviceArray<Value>(g_.num_vertices(), "messages sent");
    pull_surveys_.resize(parts_.size());
  }
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(next_.data(), 0, next_.bytes(), s), doing);
  OOC_CUDA(cudaMemsetAsync(current_.data(), 0, current_.bytes(), s), doing);
  cuda::init_kernel<<<warp_grid_for(words_), kBlockThreads, 0, s>>>(
      program_, values_.data(), deltas_.data(), current_.data(), g_.num_vertices());
  check_launch("init_kernel", doing);
  if (ranked_) {
    launch_mask_owned(current_.data(), device_.owned.data(), words_, grid_for(words_), s);
    agreed_ = DeviceArray<Value>(g_.num_vertices(), "the agreed vertex values");
    OOC_CUDA(cudaMemcpyAsync(agreed_.data(), kAccumulative ? deltas_.data() : values_.data(),
                             agreed_.bytes(), cudaMemcpyDeviceToDevice, s),
             doing);
    if constexpr (kAccumulative) change_ = DeviceArray<Value>(g_.num_vertices(), "delta changes");
    if (options_.exchange != Exchange::dense) {
      // Forced sparse gathers up to every vertex; auto only below its crossover, V/N pairs.
      const std::uint64_t n = g_.num_vertices();
      const auto ranks = static_cast<std::uint64_t>(device_.nccl->size());
      pair_capacity_ = options_.exchange == Exchange::sparse ? n : (n + ranks - 1) / ranks;
      own_pairs_ = DeviceArray<std::uint64_t>(pair_capacity_, "the rank's changed vertices");
      all_pairs_ = DeviceArray<std::uint64_t>(pair_capacity_ * ranks, "every rank's changes");
      pair_count_ = DeviceArray<unsigned long long>(1, "the count of changed vertices");
    }
  }
  ws_.streams[kDirect].synchronize(doing);
}

// Pass 1 of the priority window: the range of urgency over the active vertices.
template <class P>
std::optional<UrgencyRange> CudaExecutor<P>::urgency_range() {
  if (words_ == 0) return std::nullopt;
  const char* doing = "choosing the priority window";
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + 1, 0xff, sizeof(unsigned long long), s), doing);
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + 2, 0, sizeof(unsigned long long), s), doing);
  cuda::urgency_range_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(PriorityWindow{}), ws_.scalars.data() + 1,
      ws_.scalars.data() + 2);
  check_launch("urgency_range_kernel", doing);
  d2h(ws_.host_scalars.data(), ws_.scalars.data() + 1, 2, s, doing);
  ws_.streams[kDirect].synchronize(doing);
  if (ws_.host_scalars[0] > ws_.host_scalars[1]) return std::nullopt;  // nothing active
  return UrgencyRange{cuda::from_order_key(ws_.host_scalars[0]),
                      cuda::from_order_key(ws_.host_scalars[1])};
}

// Pass 2: the active edges (and pending delta) per urgency bucket.
template <class P>
void CudaExecutor<P>::urgency_loads(const UrgencyRange& range, std::span<BucketLoad> loads) {
  const char* doing = "choosing the priority window";
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(ws_.buckets.data(), 0, ws_.buckets.bytes(), s), doing);
  PriorityWindow histogram;
  histogram.range = range;
  cuda::urgency_histogram_kernel<kPriorityBuckets><<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(histogram), ws_.buckets.data());
  check_launch("urgency_histogram_kernel", doing);
  d2h(ws_.host_buckets.data(), ws_.buckets.data(), kPriorityBuckets, s, doing);
  ws_.streams[kDirect].synchronize(doing);
  for (std::size_t b = 0; b < loads.size(); ++b)
    loads[b] = {ws_.host_buckets[b].edges, ws_.host_buckets[b].mass};
}

template <class P>
void CudaExecutor<P>::survey(const PriorityWindow& window, std::span<PartitionSurvey> out) {
  window_ = window;
  const char* doing = "surveying the partitions";
  const cudaStream_t s = stream(kDirect);
  const auto partitions = static_cast<std::uint32_t>(parts_.size());
  pulling_ = false;
  if (partitions == 0) return;
  // The push half only: the pull half may hold a gathering set that does not change.
  OOC_CUDA(cudaMemsetAsync(ws_.counters.data(), 0, partitions * sizeof(cuda::PartitionCounters), s),
           doing);
  OOC_CUDA(cudaMemset2DAsync(&ws_.counters.data()->most_urgent, sizeof(cuda::PartitionCounters),
                             0xff, sizeof(unsigned long long), partitions, s),
           doing);
  cuda::survey_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
      current_.data(), g_.num_vertices(), view(window_), device_.partition_first.data(), partitions,
      cost_.request_bytes, ws_.counters.data());
  check_launch("survey_kernel", doing);
  launch_choose_engines(ws_.counters.data(), device_.partition_edges.data(), partitions,
                        options_.transfer, plan_.in_memory,
                        cached(false) ? device_.cache.cached.data() : nullptr,
                        compressed(false) ? device_.partition_compressed.data() : nullptr,
                        edge_bytes_, weight_bits(false), cost_, grid_for(partitions), s);
  d2h(ws_.host_counters.data(), ws_.counters.data(), partitions, s, doing);
  ws_.streams[kDirect].synchronize(doing);
  read_surveys(ws_.host_counters.data(), out, false);
  surveys_.assign(out.begin(), out.end());
}

template <class P>
void CudaExecutor<P>::set_direction(bool pull) {
  pulling_ = pull;
  if (pull) surveys_ = pull_surveys_;
  // In-lists do not enter the edge cache: an iteration that pulls over them moves none of it.
  const bool out_lists = !pulling_ || &pull_device_ == &device_;
  for (std::size_t i = 0; i < surveys_.size() && !plan_.in_memory && out_lists; ++i) {
    const PartitionSurvey& survey = surveys_[i];
    if (survey.activity.active_vertices == 0) continue;
    // What the partition would move were it not cached: the cache's measure of reuse.
    const TransferEngine moving =
        survey.engine == TransferEngine::resident
            ? engine_for(options_.transfer, false, survey.activity, edge_bytes_, cost_)
            : survey.engine;
    device_.moved[i] += link_bytes(moving, survey.activity, edge_bytes_, cost_.request_bytes);
  }
}

template <class P>
void CudaExecutor<P>::read_surveys(const cuda::PartitionCounters* counters,
                                   std::span<PartitionSurvey> out, bool pull) const {
  const std::span<const Partition> parts = parts_of(pull);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const cuda::PartitionCounters& c = counters[i];
    PartitionSurvey& survey = out[i];
    survey.activity = {parts[i].num_edges(),
                       c.active_vertices,
                       c.active_edges,
                       c.requests,
                       filter_bytes_of(parts[i], pull),
                       compacted_bytes_of(c, pull)};
    survey.engine = static_cast<TransferEngine>(c.engine);
    survey.priority = pull || c.active_vertices == 0 ? 0.0
                      : kAccumulative                ? c.delta
                                                     : -cuda::from_order_key(c.most_urgent);
  }
}

// The floor (programs that have one: the least value in the frontier, from which no offer this
// iteration can go lower), the gathering vertices, their counters and engines; drive() sums
// them with the push survey's and chooses. Without a floor the gathering vertices are those with a
// list, in every iteration: they are marked and counted once per run, and only their engines are
// chosen again (the costs move).
template <class P>
void CudaExecutor<P>::survey_pull(std::span<PartitionSurvey> out) {
  const char* doing = "surveying the pull direction";
  const cudaStream_t s = stream(kDirect);
  const vid_t n = g_.num_vertices();
  const auto partitions = static_cast<std::uint32_t>(parts_.size());
  if (partitions == 0) return;  // as survey(): nothing to count
  cuda::PartitionCounters* counters = ws_.counters.data() + partitions;
  has_floor_ = false;
  if constexpr (PullFloorProgram<P>) {
    // The push survey's most urgent admitted vertex is the frontier's least value: the priority
    // window admits the most urgent bucket first, and a monotone program's urgency is its value.
    unsigned long long least = ~0ull;
    for (std::uint32_t i = 0; i < partitions; ++i) {
      if (ws_.host_counters[i].active_vertices > 0)
        least = std::min(least, ws_.host_counters[i].most_urgent);
    }
    if (least != ~0ull) {
      floor_ = program_.pull_floor(static_cast<Value>(cuda::from_order_key(least)));
      has_floor_ = true;
    }
  }
  if (PullFloorProgram<P> || !gathering_counted_) {
    cuda::mark_kernel<<<warp_grid_for(words_), kBlockThreads, 0, s>>>(
        gather_.data(), n,
        GatherTest<Value>{values_.data(), pull_device_.offsets.data(), floor_, has_floor_});
    check_launch("mark_kernel", doing);
    OOC_CUDA(cudaMemsetAsync(counters, 0, partitions * sizeof(cuda::PartitionCounters), s), doing);
    cuda::survey_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
        gather_.data(), n, view(PriorityWindow{}, true), device_.partition_first.data(), partitions,
        cost_.request_bytes, counters);
    check_launch("survey_kernel", doing);
    gathering_counted_ = true;
  }
  launch_choose_engines(counters, pull_device_.partition_edges.data(), partitions,
                        options_.transfer, plan_.in_memory,
                        cached(true) ? pull_device_.cache.cached.data() : nullptr,
                        compressed(true) ? pull_device_.partition_compressed.data() : nullptr,
                        edge_bytes_, weight_bits(true), cost_, grid_for(partitions), s);
  d2h(ws_.host_counters.data() + partitions, counters, partitions, s, doing);
  ws_.streams[kDirect].synchronize(doing);
  read_surveys(ws_.host_counters.data() + partitions, pull_surveys_, true);
  std::ranges::copy(pull_surveys_, out.begin());
}

template <class P>
cuda::RangeSet CudaExecutor<P>::upload_ranges(std::span<const Task> tasks) {
  // Each task's partitions as vertex ranges, neighbouring partitions merged; all tasks' ranges
  // go up in one copy.
  // Cached partitions are neighbours in the cache when they are in the graph: a range of them
  // starts at its first partition's position.
  task_range_start_.clear();
  std::uint32_t r = 0;
  std::uint64_t words = 0;
  for (const Task& task : tasks) {
    task_range_start_.push_back(r);
    const bool from_cache = task.engine == TransferEngine::resident && cached();
    for (std::size_t k = 0; k < task.partitions.size(); ++k) {
      const Partition& p = parts_[task.partitions[k]];
      if (k > 0 && task.partitions[k - 1] + 1 == task.partitions[k]) {
        ws_.host_range_last[r - 1] = p.last_vertex;
        continue;
      }
      ws_.host_range_first[r] = p.first_vertex;
      ws_.host_range_last[r] = p.last_vertex;
      ws_.host_range_shift[r] =
          from_cache ? p.first_edge - device_.cache.position[task.partitions[k]] : 0;
      ws_.host_range_list_shift[r] = from_cache && device_.cache.compressed
                                         ? g_.compressed.offsets[p.first_vertex] -
                                               device_.cache.list_position[task.partitions[k]]
                                         : 0;
      ++r;
    }
  }
  task_range_start_.push_back(r);
  for (std::uint32_t i = 0; i < r; ++i) {
    ws_.host_range_prefix[i] = words;
    words += (std::uint64_t{ws_.host_range_last[i]} + 63) / 64 - ws_.host_range_first[i] / 64;
  }
  ws_.host_range_prefix[r] = words;
  task_words_ = words;
  const char* doing = "uploading the task ranges";
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_first.data(), ws_.host_range_first.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_last.data(), ws_.host_range_last.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_prefix.data(), ws_.host_range_prefix.data(),
                           (r + 1) * sizeof(std::uint64_t), cudaMemcpyHostToDevice, s),
           doing);
  const bool shifted = cached(), lists_shifted = shifted && device_.cache.compressed;
  if (shifted) {
    OOC_CUDA(cudaMemcpyAsync(ws_.range_shift.data(), ws_.host_range_shift.data(), r * sizeof(eid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
  if (lists_shifted) {
    OOC_CUDA(cudaMemcpyAsync(ws_.range_list_shift.data(), ws_.host_range_list_shift.data(),
                             r * sizeof(eid_t), cudaMemcpyHostToDevice, s),
             doing);
  }
  return {ws_.range_first.data(),
          ws_.range_last.data(),
          ws_.range_prefix.data(),
          shifted ? ws_.range_shift.data() : nullptr,
          lists_shifted ? ws_.range_list_shift.data() : nullptr,
          r};
}

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

template <class P>
cuda::OffsetEdges CudaExecutor<P>::edges_for(TransferEngine engine) const {
  const DeviceGraph& d = lists(pulling_);
  switch (engine) {
    case TransferEngine::resident:
      if (cached()) {
        return {d.offsets.data(), d.cache.targets.data(),
                weighted_ ? d.cache.weights.data() : nullptr, 0};
      }
      return {d.offsets.data(), d.resident_targets.data(),
              weighted_ ? d.resident_weights.data() : nullptr, 0};
    case TransferEngine::unified:
      return {d.offsets.data(), d.managed_targets, weighted_ ? d.managed_weights : nullptr, 0};
    default:
      return {d.offsets.data(), d.mapped_targets, weighted_ ? d.mapped_weights : nullptr, 0};
  }
}

template <class P>
std::optional<cuda::CompressedEdges> CudaExecutor<P>::compressed_edges(
    TransferEngine engine) const {
  if (engine == TransferEngine::zerocopy && compressed()) {
    cuda::PackedWeights weights{};
    if (weighted_ && packed()) {
      const CompressedTargets& c = g_.compressed;
      weights = {device_.mapped_packed_weights,
                 device_.mapped_packed_weights + c.packed_weights.size(), c.weight_width,
                 c.weight_base};
    }
    return cuda::CompressedEdges{device_.offsets.data(),
                                 device_.compressed_offsets.data(),
                                 device_.mapped_compressed,
                                 device_.mapped_compressed + g_.compressed.bytes.size(),
                                 weighted_ && !packed() ? device_.mapped_weights : nullptr,
                                 weights};
  }
  if (engine == TransferEngine::resident && cached() && device_.cache.compressed) {
    // The cache keeps the weights beside the compressed lists, packed when the graph packs them.
    const EdgeCache& cache = device_.cache;
    cuda::PackedWeights weights{};
    if (weighted_ && cache.packed.size() > 0) {
      const CompressedTargets& c = g_.compressed;
      weights = {cache.packed.data(), cache.packed.data() + cache.packed.size(), c.weight_width,
                 c.weight_base};
    }
    return cuda::CompressedEdges{
        device_.offsets.data(),
        device_.compressed_offsets.data(),
        cache.lists.data(),
        cache.lists_end(),
        weighted_ && cache.packed.size() == 0 ? cache.weights.data() : nullptr,
        weights};
  }
  return std::nullopt;
}

template <class P>
void CudaExecutor<P>::execute(std::span<const Task> tasks, IterationStats& stats) {
  const char* doing = "running the iteration's tasks";
  const cudaStream_t s = stream(kDirect);
  if (!taken_) {  // the iteration's first run of tasks (a rank may run them in several)
    stats.link_bandwidth = cost_.link_bandwidth;
    stats.zerocopy_round_trip = cost_.zerocopy_round_trip;
    cuda::take_kernel<<<grid_for(words_), kBlockThreads, 0, s>>>(
        current_.data(), work_.data(), g_.num_vertices(), view(window_), window_.deferring);
    check_launch("take_kernel", doing);
    if constexpr (kAccumulative && kCanPull) {
      if (pulling_) {  // the frontier's messages, before any vertex gathers
        cuda::send_kernel<<<grid_for(g_.num_vertices()), kBlockThreads, 0, s>>>(
            program_, values_.data(), deltas_.data(), sent_.data(), work_.data(),
            device_.offsets.data(), g_.num_vertices());
        check_launch("send_kernel", doing);
      }
    }
    taken_ = true;
  }
  const cuda::RangeSet all = upload_ranges(tasks);
  const bool compacting = std::any_of(tasks.begin(), tasks.end(), [](const Task& t) {
    return t.engine == TransferEngine::compaction;
  });
  if (compacting) d2h(ws_.host_work.data(), work_bits(), words_, s, doing);
  if (options_.adapt_costs) {
    if (timers_.empty()) timers_.emplace_back(true);
    timers_[0].record(s, doing);  // every task's stream waits for work_ready, recorded after it
  }
  ws_.work_ready.record(s, doing);
  for (unsigned i = 0; i < kStagingBuffers; ++i)
    ws_.work_ready.wait_in(stream(i), doing);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const cuda::RangeSet ranges = task_ranges(all, task_range_start_[t], task_range_start_[t + 1]);
    switch (tasks[t].engine) {
      case TransferEngine::filter:
        run_filter(tasks[t], ranges, stats);
        break;
      case TransferEngine::compaction:
        break;  // last: its CPU work overlaps everything queued above
      default:
        run_direct(tasks[t], ranges, stats);
        break;
    }
  }
  for (const Task& task : tasks) {
    if (task.engine == TransferEngine::compaction) run_compaction(task, stats);
  }
  for (unsigned i = 0; i < kStreams; ++i)
    ws_.streams[i].synchronize(doing);
  OOC_CUDA(cudaMemcpy(ws_.host_scalars.data(), ws_.scalars.data(),
                      (kLinesRead + 1) * sizeof(unsigned long long), cudaMemcpyDeviceToHost),
           doing);
  OOC_CUDA(cudaMemset(ws_.scalars.data(), 0, sizeof(unsigned long long)), doing);
  OOC_CUDA(cudaMemset(ws_.scalars.data() + kLinesRead, 0, sizeof(unsigned long long)), doing);
  stats.edges_processed += ws_.host_scalars[0];
  stats.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] +=
      ws_.host_scalars[kLinesRead] * cost_.request_bytes;
  if (options_.adapt_costs) adapt_costs(doing);
}

template <class P>
void CudaExecutor<P>::time_from(cudaStream_t s, const char* doing) {
  const std::size_t at = 1 + 2 * timed_.size();
  while (timers_.size() < at + 2)
    timers_.emplace_back(true);
  timers_[at].record(s, doing);
}

template <class P>
void CudaExecutor<P>::time_to(cudaStream_t s, const Timed& what, const char* doing) {
  timers_[2 + 2 * timed_.size()].record(s, doing);
  timed_.push_back(what);
}

// Only spans that no span of the other engine overlaps count (EngineTimings). Filter spans
// overlap each other (two staging streams share the link), so their time is the length of their
// union; zero-copy spans run one after another on the direct stream.
template <class P>
void CudaExecutor<P>::adapt_costs(const char* doing) {
  std::vector<std::pair<double, double>> spans(timed_.size());
  for (std::size_t i = 0; i < timed_.size(); ++i) {
    for (const std::size_t k : {0, 1}) {
      float ms = 0;
      OOC_CUDA(cudaEventElapsedTime(&ms, timers_[0].get(), timers_[1 + 2 * i + k].get()), doing);
      (k == 0 ? spans[i].first : spans[i].second) = static_cast<double>(ms) * 1e-3;
    }
  }
  const auto alone = [&](std::size_t i) {
    for (std::size_t j = 0; j < spans.size(); ++j) {
      if (timed_[j].engine != timed_[i].engine && spans[j].first < spans[i].second &&
          spans[i].first < spans[j].second)
        return false;
    }
    return true;
  };
  EngineTimings t;
  std::vector<std::pair<double, double>> filter;
  double share = 0;
  for (std::size_t i = 0; i < timed_.size(); ++i) {
    if (!alone(i)) continue;
    if (timed_[i].engine == TransferEngine::filter) {
      filter.push_back(spans[i]);
      t.filter_bytes += timed_[i].amount;
    } else {
      t.zerocopy_seconds += spans[i].second - spans[i].first;
      t.zerocopy_requests += timed_[i].amount;
      share += timed_[i].amount * timed_[i].share;
    }
  }
  std::sort(filter.begin(), filter.end());
  double reached = 0;
  for (const auto& [from, to] : filter) {
    t.filter_seconds += std::max(0.0, to - std::max(from, reached));
    reached = std::max(reached, to);
  }
  if (t.zerocopy_requests > 0) t.zerocopy_share = share / t.zerocopy_requests;
  cost_ = adapted(cost_, t);
  timed_.clear();
}

template <class P>
template <class Source>
void CudaExecutor<P>::advance_ranges(unsigned i, const cuda::RangeSet& ranges, Source source,
                                     const cuda::OffsetEdges& edges, const char* doing,
                                     bool count_lines, cuda::ListCut cut) {
  if constexpr (kCanPull) {
    if (pulling_) {
      const auto rule = pull_rule();
      const cuda::PullState state = pull_state(i, count_lines);
      if (options_.load_balance != LoadBalance::warp && !count_lines) {
        cuda::pull_ranges_tiled_kernel<<<grid_for(task_words_ * 64), kBlockThreads, 0, stream(i)>>>(
            rule, state, ranges, source, edges, cut);
        check_launch("pull_ranges_tiled_kernel", doing);
      } else {
        cuda::pull_ranges_kernel<<<warp_grid_for(task_words_), kBlockThreads, 0, stream(i)>>>(
            rule, state, ranges, source, edges, cut);
        check_launch("pull_ranges_kernel", doing);
      }
      drain_gathers(i, {}, count_lines, doing);
      return;
    }
  }
  if (options_.load_balance == LoadBalance::warp) {
    cuda::advance_ranges_kernel<<<warp_grid_for(task_words_), kBlockThreads, 0, stream(i)>>>(
        program_, program_state(i), ranges, source, edges);
    check_launch("advance_ranges_kernel", doing);
  } else {
    with_block_mapping([&](auto mapping) {
      cuda::
          advance_ranges_block_kernel<<<grid_for(task_words_ * 64), kBlockThreads, 0, stream(i)>>>(
              program_, program_state(i), ranges, source, edges, mapping);
    });
    check_launch("advance_ranges_block_kernel", doing);
  }
  drain_heavy(i, doing);
}

template <class P>
void CudaExecutor<P>::advance_compacted(unsigned i, const cuda::CompactedEdges& batch,
                                        std::uint64_t count, const char* doing) {
  if constexpr (kCanPull) {
    if (pulling_) {
      const auto rule = pull_rule();
      const cuda::PullState state = pull_state(i, false);
      if (options_.load_balance != LoadBalance::warp) {
        cuda::pull_compacted_tiled_kernel<<<grid_for(count), kBlockThreads, 0, stream(i)>>>(
            rule, state, batch, count);
        check_launch("pull_compacted_tiled_kernel", doing);
      } else {
        cuda::pull_compacted_kernel<<<warp_grid_for(count), kBlockThreads, 0, stream(i)>>>(
            rule, state, batch, count);
        check_launch("pull_compacted_kernel", doing);
      }
      drain_gathers(i, {}, false, doing);
      return;
    }
  }
  if (options_.load_balance == LoadBalance::warp) {
    cuda::advance_compacted_kernel<<<warp_grid_for(count), kBlockThreads, 0, stream(i)>>>(
        program_, program_state(i), batch, count);
    check_launch("advance_compacted_kernel", doing);
  } else {
    with_block_mapping([&](auto mapping) {
      cuda::advance_compacted_block_kernel<<<grid_for(count), kBlockThreads, 0, stream(i)>>>(
          program_, program_state(i), batch, count, mapping);
    });
    check_launch("advance_compacted_block_kernel", doing);
  }
  drain_heavy(i, doing);
}

template <class P>
void CudaExecutor<P>::drain_heavy(unsigned i, const cuda::CompressedEdges& lists,
                                  const char* doing) {
  cuda::heavy_kernel<<<static_cast<unsigned>(max_blocks_), kBlockThreads, 0, stream(i)>>>(
      program_, program_state(i, lists));
  check_launch("heavy_kernel", doing);
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + kHeavyCounters + i, 0, sizeof(unsigned long long),
                           stream(i)),
           doing);
}

template <class P>
void CudaExecutor<P>::drain_gathers(unsigned i, const cuda::CompressedEdges& lists,
                                    bool count_lines, const char* doing) {
  if constexpr (kCanPull) {
    const auto rule = pull_rule();
    cuda::pull_heavy_kernel<<<static_cast<unsigned>(max_blocks_), kBlockThreads, 0, stream(i)>>>(
        rule, pull_state(i, count_lines, lists));
    check_launch("pull_heavy_kernel", doing);
    OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + kHeavyCounters + i, 0, sizeof(unsigned long long),
                             stream(i)),
             doing);
  }
}

template <class P>
void CudaExecutor<P>::run_filter(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a filter task";
  const unsigned i = next_staging_;
  next_staging_ = (next_staging_ + 1) % kStagingBuffers;
  Workspace::Staging& st = ws_.staging[i];
  const cudaStream_t s = stream(i);
  const Graph& g = *lists(pulling_).graph;
  const Partition& first = parts_of(pulling_)[task.partitions.front()];
  const Partition& last = parts_of(pulling_)[task.partitions.back()];
  const eid_t base = first.first_edge;
  const eid_t edges = last.last_edge - base;
  std::uint64_t bytes = edges * edge_bytes_;
  if (options_.adapt_costs) time_from(s, doing);
  if (edges > 0 && weighted_ && packed()) {
    // The task's packed weights (and the padding after the array), unpacked into staging.
    const CompressedTargets& c = g_.compressed;
    const std::uint64_t first_bit = base * c.weight_width;
    const std::uint64_t from = first_bit / 8;
    const std::uint64_t length = codec::packed_bytes(base + edges, c.weight_width) - from;
    OOC_CUDA(cudaMemcpyAsync(st.packed.data(), c.packed_weights.data() + from,
                             length + codec::kPadding, cudaMemcpyHostToDevice, s),
             doing);
    cuda::unpack_weights_kernel<<<grid_for(edges), kBlockThreads, 0, s>>>(
        st.packed.data(), first_bit % 8, edges, c.weight_width, c.weight_base, st.weights.data());
    check_launch("unpack_weights_kernel", doing);
  } else if (edges > 0 && weighted_) {  // an empty graph's arrays may be null
    OOC_CUDA(cudaMemcpyAsync(st.weights.data(), g.weights.data() + base,
                             edges * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s),
             doing);
  }
  if (edges > 0 && compressed()) {
    // The task's compressed lists and the padding after them (codec::kPadding), decoded into
    // the staged targets.
    const eid_t from = g_.compressed.offsets[first.first_vertex];
    const eid_t length = g_.compressed.range_bytes(first.first_vertex, last.last_vertex);
    OOC_CUDA(cudaMemcpyAsync(st.compressed.data(), g_.compressed.bytes.data() + from,
                             length + codec::kPadding, cudaMemcpyHostToDevice, s),
             doing);
    cuda::decode_kernel<<<warp_grid_for((edges + cuda::kDecodeEdges - 1) / cuda::kDecodeEdges),
                          kBlockThreads, 0, s>>>(
        st.compressed.data(), device_.compressed_offsets.data(), device_.offsets.data(),
        first.first_vertex, last.last_vertex, st.targets.data());
    check_launch("decode_kernel", doing);
    bytes = compressed_filter_bytes(length, edges, edge_bytes_, weight_bits());
  } else if (edges > 0) {
    OOC_CUDA(cudaMemcpyAsync(st.targets.data(), g.targets.data() + base, edges * sizeof(vid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
  if (options_.adapt_costs)
    time_to(s, {TransferEngine::filter, static_cast<double>(bytes), 0.0}, doing);
  stats.bytes[static_cast<std::size_t>(TransferEngine::filter)] += bytes;
  const cuda::OffsetEdges staged{lists(pulling_).offsets.data(), st.targets.data(),
                                 weighted_ ? st.weights.data() : nullptr, base};
  advance_ranges(i, ranges, cuda::FromWork{work_bits()}, staged, doing);
  if (task.reprocess && !pulling_) {
    const cuda::TakeAdmitted<VertexView<P>> newly_active{next_.data(), view(window_)};
    advance_ranges(i, ranges, newly_active, staged, "reprocessing a filter task");
  }
}

template <class P>
void CudaExecutor<P>::run_direct(const Task& task, const cuda::RangeSet& ranges,
                                 IterationStats& stats) {
  const char* doing = "a zero-copy task";
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
  if (timed) time_from(stream(kDirect), doing);
  const cuda::FromWork source{work_bits()};
  advance_direct(task, ranges, source, count_lines, doing);
  // A resident slice (TaskOptions::resident_slices), once more over the vertices it activated,
  // as a filter task is.
  if (task.reprocess && !pulling_) {
    const cuda::TakeAdmitted<VertexView<P>> newly_active{next_.data(), view(window_)};
    advance_direct(task, ranges, newly_active, false, "reprocessing a resident slice");
  }
  if (timed) {
    const double share =
        edges == 0 ? 0.0 : static_cast<double>(active) / static_cast<double>(edges);
    time_to(stream(kDirect), {TransferEngine::zerocopy, static_cast<double>(requests), share},
            doing);
  }
}

// A direct task's kernels over its lists where they are (compressed or not), from `source`.
template <class P>
template <class Source>
void CudaExecutor<P>::advance_direct(const Task& task, const cuda::RangeSet& ranges, Source source,
                                     bool count_lines, const char* doing) {
  if (const auto lists = compressed_edges(task.engine)) {
    if (pulling_) {
      if constexpr (kCanPull) {
        const auto rule = pull_rule();
        cuda::pull_compressed_kernel<<<warp_grid_for(task_words_), kBlockThreads, 0,
                                       stream(kDirect)>>>(rule, pull_state(kDirect, false, *lists),
                                                          ranges, source, *lists);
        check_launch("pull_compressed_kernel", doing);
        drain_gathers(kDirect, *lists, false, doing);
      }
    } else {
      cuda::advance_compressed_kernel<<<warp_grid_for(task_words_), kBlockThreads, 0,
                                        stream(kDirect)>>>(program_, program_state(kDirect, *lists),
                                                           ranges, source, *lists);
      check_launch("advance_compressed_kernel", doing);
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
  ws_.work_ready.synchronize(doing);  // the work bitmap is on the host now
  std::vector<vid_t> first, last, active;
  for (const std::uint32_t p : task.partitions) {
    first.push_back(parts_[p].first_vertex);
    last.push_back(parts_[p].last_vertex);
  }
  collect_vertices(ws_.host_work.data(), first, last, active);
  for (std::size_t done = 0; done < active.size();) {
    const unsigned i = next_staging_;
    next_staging_ = (next_staging_ + 1) % kStagingBuffers;
    Workspace::Staging& st = ws_.staging[i];
    const cudaStream_t s = stream(i);
    st.host_free.synchronize(doing);
    if (compressed()) {
      done += compact_compressed(i, std::span<const vid_t>(active).subspan(done), stats);
      continue;
    }
    const CompactionBuffer buffer{
        st.host_vertices.data(), st.host_begin.data(),
        st.host_targets.data(),  weighted_ ? st.host_weights.data() : nullptr,
        st.host_vertices.size(), st.host_targets.size()};
    CompactedBatch batch;
    compaction_arena(options_.device).execute([&] {
      batch = compact(*lists(pulling_).graph, std::span<const vid_t>(active).subspan(done), buffer);
    });
    const auto up = [&](auto* dst, const auto* src, std::size_t n) {
      if (n > 0)
        OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(*src), cudaMemcpyHostToDevice, s), doing);
    };
    up(st.vertices.data(), buffer.vertices, batch.vertices);
    up(st.begin.data(), buffer.offsets, batch.vertices + 1);
    up(st.targets.data(), buffer.targets, batch.edges);
    if (weighted_) up(st.weights.data(), buffer.weights, batch.edges);
    st.host_free.record(s, doing);
    stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
        batch.edges * edge_bytes_ + batch.vertices * kCompactionIndexBytes;
    const cuda::CompactedEdges compacted{st.vertices.data(), st.begin.data(), st.targets.data(),
                                         weighted_ ? st.weights.data() : nullptr};
    advance_compacted(i, compacted, batch.vertices, doing);
    done += batch.vertices;
  }
  stats.transfer_seconds += std::chrono::duration<double>(Clock::now() - start).count();
}

template <class P>
std::size_t CudaExecutor<P>::compact_compressed(unsigned i, std::span<const vid_t> active,
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
  const auto up = [&](auto* dst, const auto* src, std::size_t n) {
    if (n > 0)
      OOC_CUDA(cudaMemcpyAsync(dst, src, n * sizeof(*src), cudaMemcpyHostToDevice, s), doing);
  };
  up(st.vertices.data(), buffer.vertices, batch.vertices);
  up(st.begin.data(), buffer.offsets, batch.vertices + 1);
  up(st.list_begin.data(), buffer.list_offsets, batch.vertices + 1);
  up(st.compressed.data(), buffer.lists, batch.list_bytes + codec::kPadding);
  if (packed_weights) {
    up(st.packed.data(), buffer.packed_weights, batch.weight_bytes + codec::kPadding);
  } else if (weighted_) {
    up(st.weights.data(), buffer.weights, batch.edges);
  }
  st.host_free.record(s, doing);
  if (batch.edges > 0) {
    cuda::
        decode_kernel<<<warp_grid_for((batch.edges + cuda::kDecodeEdges - 1) / cuda::kDecodeEdges),
                        kBlockThreads, 0, s>>>(
            st.compressed.data(), st.list_begin.data(), st.begin.data(), 0,
            static_cast<vid_t>(batch.vertices), st.targets.data());
    check_launch("decode_kernel", doing);
    if (packed_weights) {
      const CompressedTargets& c = g_.compressed;
      cuda::unpack_weights_kernel<<<grid_for(batch.edges), kBlockThreads, 0, s>>>(
          st.packed.data(), 0, batch.edges, c.weight_width, c.weight_base, st.weights.data());
      check_launch("unpack_weights_kernel", doing);
    }
  }
  stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
      batch.list_bytes + batch.weight_bytes + batch.vertices * kCompressedIndexBytes;
  const cuda::CompactedEdges compacted{st.vertices.data(), st.begin.data(), st.targets.data(),
                                       weighted_ ? st.weights.data() : nullptr};
  advance_compacted(i, compacted, batch.vertices, doing);
  return batch.vertices;
}

// The ranks agree on the vertex arrays, in one of two forms (docs/distributed.md, section 2):
//   dense   monotone programs all-reduce the values with the program's direction (min unless it
//           says); accumulative ones the sum of every rank's change of the deltas
//   sparse  every rank all-gathers the (vertex, value) pairs it changed, padded to the busiest
//           rank's count, and applies the others' (min, max or sum)
// Exchange::automatic takes the sparse form when it moves fewer bytes: 8 N c < 2 * 4 V for the
// busiest rank's c changes. Then an owned vertex whose value changed, or whose delta now reaches
// the threshold, joins the next frontier.
template <class P>
void CudaExecutor<P>::exchange(Communicator& host, IterationStats& stats) {
  const char* doing = "exchanging with the other ranks";
  const cudaStream_t s = stream(kDirect);
  const vid_t n = g_.num_vertices();
  NcclLink& nccl = *device_.nccl;
  const auto ranks = static_cast<std::uint64_t>(nccl.size());
  Value* const now = kAccumulative ? deltas_.data() : values_.data();  // what the pairs carry
  unsigned long long mine = 0;
  if (pair_capacity_ > 0 && n > 0) {
    OOC_CUDA(cudaMemsetAsync(pair_count_.data(), 0, sizeof mine, s), doing);
    cuda_exchange::collect_changes_kernel<Value, kAccumulative>
        <<<grid_for(n), kBlockThreads, 0, s>>>(now, agreed_.data(), own_pairs_.data(),
                                               pair_capacity_, pair_count_.data(), n);
    check_launch("collect_changes_kernel", doing);
    d2h(&mine, pair_count_.data(), 1, s, doing);
    ws_.streams[kDirect].synchronize(doing);
  }
  // Every rank has finished its tasks before any enters NCCL, which would wait forever for a
  // rank that failed: a failed rank breaks this host-side step instead (its abort()).
  std::array<std::uint64_t, 1> busiest{mine};
  host.all_reduce(busiest, Reduction::max);
  const std::uint64_t c = busiest[0];
  if (n == 0) return;
  // The collective alone (the kernels queued before it on the stream finish first).
  const auto in_nccl = [&](auto&& collective) {
    ws_.streams[kDirect].synchronize(doing);
    const auto start = Clock::now();
    collective();
    stats.nccl_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  };
  const bool sparse =
      pair_capacity_ > 0 && c <= pair_capacity_ &&
      (options_.exchange == Exchange::sparse || 8 * ranks * c < 2 * sizeof(Value) * n);
  if (sparse) {
    stats.sparse_exchange = true;
    if (c == 0) return;  // no rank changed anything
    if (mine < c) {
      OOC_CUDA(
          cudaMemsetAsync(own_pairs_.data() + mine, 0xff, (c - mine) * sizeof(std::uint64_t), s),
          doing);
    }
    in_nccl([&] { nccl.all_gather(own_pairs_.data(), all_pairs_.data(), c, s); });
    const std::uint64_t own = static_cast<std::uint64_t>(nccl.rank()) * c;
    constexpr Reduction op = kAccumulative ? Reduction::sum : reduction_of<P>();
    cuda_exchange::apply_pairs_kernel<Value, op><<<grid_for(ranks * c), kBlockThreads, 0, s>>>(
        now, all_pairs_.data(), ranks * c, own, own + c);
    check_launch("apply_pairs_kernel", doing);
    stats.exchange_bytes += ranks * c * sizeof(std::uint64_t);
  } else if constexpr (kAccumulative) {
    cuda_exchange::delta_change_kernel<<<grid_for(n), kBlockThreads, 0, s>>>(
        deltas_.data(), agreed_.data(), change_.data(), n);
    check_launch("delta_change_kernel", doing);
    in_nccl([&] { nccl.all_reduce(change_.data(), n, Reduction::sum, s); });
    stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
  } else {
    in_nccl([&] { nccl.all_reduce(values_.data(), n, reduction_of<P>(), s); });
    stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
  }
  if constexpr (kAccumulative) {
    cuda_exchange::apply_change_kernel<P, kBlockThreads><<<grid_for(n), kBlockThreads, 0, s>>>(
        program_, deltas_.data(), agreed_.data(), sparse ? nullptr : change_.data(), next_.data(),
        device_.owned.data(), n);
    check_launch("apply_change_kernel", doing);
  } else {
    cuda_exchange::changed_kernel<<<grid_for(n), kBlockThreads, 0, s>>>(
        values_.data(), agreed_.data(), next_.data(), device_.owned.data(), n);
    check_launch("changed_kernel", doing);
  }
  ws_.streams[kDirect].synchronize(doing);
}

template <class P>
void CudaExecutor<P>::advance_frontier() {
  const char* doing = "merging the frontier";
  taken_ = false;
  if (ranked_) {
    launch_merge_owned(current_.data(), next_.data(), device_.owned.data(), words_,
                       grid_for(words_), stream(kDirect));
  } else {
    cuda::merge_frontier_kernel<<<grid_for(words_), kBlockThreads, 0, stream(kDirect)>>>(
        current_.data(), next_.data(), words_);
    check_launch("merge_frontier_kernel", doing);
  }
  ws_.streams[kDirect].synchronize(doing);
}

// Accumulative programs keep each vertex's value on its owner alone: gather them everywhere.
template <class P>
void CudaExecutor<P>::finish(Communicator&) {
  if constexpr (kAccumulative) {
    const vid_t n = g_.num_vertices();
    if (!ranked_ || n == 0) return;
    const cudaStream_t s = stream(kDirect);
    cuda_exchange::keep_owned_kernel<<<grid_for(n), kBlockThreads, 0, s>>>(values_.data(),
                                                                           device_.owned.data(), n);
    check_launch("keep_owned_kernel", "gathering the ranks' values");
    device_.nccl->all_reduce(values_.data(), n, Reduction::sum, s);
  }
}

template <class P>
void CudaExecutor<P>::read_values(Value* values, Value* deltas) {
  const char* doing = "reading the results back";
  OOC_CUDA(cudaMemcpy(values, values_.data(), values_.bytes(), cudaMemcpyDeviceToHost), doing);
  if constexpr (kAccumulative)
    OOC_CUDA(cudaMemcpy(deltas, deltas_.data(), deltas_.bytes(), cudaMemcpyDeviceToHost), doing);
}

}  // namespace ooc::detail
