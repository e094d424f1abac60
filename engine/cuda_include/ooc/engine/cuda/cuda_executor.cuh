#pragma once
// The CUDA backend's executor (HyTGraph §V-VI on one GPU). Per iteration:
//   survey     the priority window's two passes when the program is ordered, then the cost
//              kernel and the engine choice per partition; counters and choices come back
//   take       the admitted active vertices move from `current` into the work bitmap
//   tasks      filter tasks take kStagingBuffers staging buffers in turn, each bound to its own
//              stream, so copies run under the earlier tasks' kernels; zero-copy, resident
//              and unified tasks run on one more stream straight from where the edges are;
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
//
// CudaExecutor<P> is compiled for every program, so it keeps only what depends on the program;
// what does not is compiled once: the device state and task staging (run_state.cuh), the cost
// adapter (cost_adapter.hpp) and the exchange's buffers and choices (rank_exchange.hpp). Its
// tasks' advances (executor_tasks.cuh), gathers (executor_pull.cuh) and exchange
// (executor_exchange.cuh) are defined in their own headers, included at the end of this one.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <span>
#include <vector>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/engine/cuda/loop_buffers.hpp"
#include "ooc/engine/cuda/rank_exchange.hpp"
#include "ooc/engine/cuda/run_state.cuh"
#include "ooc/engine/direction.hpp"
#include "ooc/engine/edge_cache.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/pull.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/advance_pull.cuh"
#include "ooc/kernels/cuda/launch.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/transfer/device_array.hpp"

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

template <class P>
class CudaExecutor final : public ValuesExecutor<typename P::Value>, private CudaRunState {
  using Value = typename P::Value;
  using Clock = std::chrono::steady_clock;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;
  static_assert(sizeof(cuda::HeavyItem<Message<P>>) <= kHeavyItemBytes,
                "the memory plan's queue size");
  static_assert(sizeof(cuda::HeavyItem<vid_t>) <= sizeof(cuda::HeavyItem<Message<P>>),
                "gathers queue their long lists in the same queues");
  static constexpr bool kCanPull = PullProgram<P>;

 public:
  CudaExecutor(const P& program, const CudaRun& run);
  ScheduleFacts facts() const override {
    return schedule_facts(program_, options_, plan_, g_.num_vertices(), may_pull_, edge_bytes_,
                          cost_.request_bytes);
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
  void stage_ahead(std::span<const Task> next, IterationStats& stats) override {
    CudaRunState::stage_ahead(next, stats);
  }
  void exchange(Communicator& host, IterationStats& stats) override;
  void advance_frontier() override;
  double pending_with_edges() override;
  bool run_frontier_loop(const FrontierLoop& loop, std::vector<IterationStats>& levels) override;
  void finish(Communicator& host) override;
  void read_values(Value* values, Value* deltas) override;
  // Runs again with `program`, from the `count` vertices of `frontier` (device memory; a rank
  // takes its own), on this run's buffers; the values stay as the last run left them. kcore.cpp
  // runs its shells so: one executor, and no pass over every vertex per shell.
  void restart(const P& program, const vid_t* frontier, std::uint64_t count);
  void report_setup(RunStats& stats) const override {
    stats.setup_bytes = setup_bytes_;
    stats.setup_storage_bytes = setup_reads_.storage_bytes;
    stats.setup_storage_seconds = setup_reads_.storage_seconds;
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
  // Surveys from the counters read back (`pull`: of the gathering vertices).
  void read_surveys(const cuda::PartitionCounters* counters, std::span<PartitionSurvey> out,
                    bool pull) const;
  // The iteration's first run of tasks: the admitted frontier into the work bitmap.
  void take_work(IterationStats& stats, const char* doing);
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
  // The pull side (executor_pull.cuh): the gathers of advance_ranges, advance_compacted and
  // advance_direct, and the long lists they queued.
  template <class Source>
  void gather_ranges(unsigned i, const cuda::RangeSet& ranges, Source source,
                     const cuda::OffsetEdges& edges, const char* doing, bool count_lines,
                     cuda::ListCut cut);
  void gather_compacted(unsigned i, const cuda::CompactedEdges& batch, std::uint64_t count,
                        const char* doing);
  template <class Source>
  void gather_compressed(const cuda::RangeSet& ranges, Source source,
                         const cuda::CompressedEdges& lists, bool tiled, const char* doing);
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
  // An accumulative program's last step of the exchange (executor_exchange.cuh): the deltas are
  // agreed, and the owned vertices whose delta reaches the threshold join the next frontier.
  void mark_changed(bool sparse, const char* doing);
  // The values' (or deltas') half of exchange(); a sharing program's slots follow.
  void exchange_values(Communicator& host, IterationStats& stats);
  void scatter_changes(IterationStats& stats, const char* doing);
  // Whether an accumulative program's dense exchange is a reduce-scatter (OwnedLayout::scatters).
  bool scatters() const { return device_.layout_scatters; }
  // The frontier loop (executor_loop.cuh): whether the device runs its kernel over `Lists`, and
  // one stretch of it launched over `lists`.
  template <class Lists>
  bool loop_supported();
  template <class Lists>
  void launch_loop(const FrontierLoop& loop, const Lists& lists, const char* doing);

  P program_;
  DeviceArray<Value> values_, deltas_;
  DeviceArray<std::uint64_t> current_, next_, work_;
  // A rank of a distributed run: the values (monotone) or deltas (accumulative) as the ranks
  // agreed on them last, and this rank's change of the deltas since.
  bool ranked_ = device_.nccl != nullptr;
  DeviceArray<Value> agreed_, change_;
  RankExchange exchange_;  // the sparse exchange's pairs
  bool taken_ = false;  // this iteration's work bitmap is taken (execute() may run several times)
  std::uint32_t iterations_ = 0;  // ended (a settling program's iteration)
  PriorityWindow window_;
  // The pull direction: whether this run may pull, the vertices that gather, an accumulative
  // program's messages, the floor (PullFloorProgram), the surveys.
  bool may_pull_ = kCanPull && plan_.pull;
  DeviceArray<std::uint64_t> gather_;
  DeviceArray<Value> sent_;
  Value floor_{};
  bool has_floor_ = false;
  bool gathering_counted_ = false;  // the gathering counters hold this run's (no floor)
  std::vector<PartitionSurvey> pull_surveys_;
  LoopBuffers loop_;
  DeviceArray<double> pending_;  // pending_with_edges()'s sum, allocated by its first call
};

template <class P>
CudaExecutor<P>::CudaExecutor(const P& program, const CudaRun& run)
    : CudaRunState(run, P::needs_weights, sizeof(cuda::HeavyItem<Message<P>>)),
      program_(program),
      values_(g_.num_vertices(), "vertex values"),
      deltas_(kAccumulative ? g_.num_vertices() : 0, "vertex deltas"),
      current_(std::max<std::uint64_t>(words_, 1), "the current frontier"),
      next_(std::max<std::uint64_t>(words_, 1), "the next frontier"),
      work_(std::max<std::uint64_t>(words_, 1), "the work bitmap") {
  const char* doing = "initialising the vertex values";
  prepare_device(may_pull_, doing);
  if (may_pull_) {
    gather_ = DeviceArray<std::uint64_t>(std::max<std::uint64_t>(words_, 1), "gathering vertices");
    if constexpr (kAccumulative) sent_ = DeviceArray<Value>(g_.num_vertices(), "messages sent");
    pull_surveys_.resize(parts_.size());
  }
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(next_.data(), 0, next_.bytes(), s), doing);
  OOC_CUDA(cudaMemsetAsync(current_.data(), 0, current_.bytes(), s), doing);
  OOC_LAUNCH(cuda::init_kernel, warp_grid_for(words_), kBlockThreads, s, doing, program_,
             values_.data(), deltas_.data(), current_.data(), g_.num_vertices());
  if (ranked_) {
    launch_mask_owned(current_.data(), device_.owned.data(), words_, grid_for(words_), s);
    agreed_ = DeviceArray<Value>(g_.num_vertices(), "the agreed vertex values");
    OOC_CUDA(cudaMemcpyAsync(agreed_.data(), kAccumulative ? deltas_.data() : values_.data(),
                             agreed_.bytes(), cudaMemcpyDeviceToDevice, s),
             doing);
    if constexpr (kAccumulative) {  // in the ranks' layout when it scatters; padding never read
      const auto ranks = static_cast<std::uint32_t>(device_.nccl->size());
      change_ = DeviceArray<Value>(scatters() ? device_.layout_block * ranks : g_.num_vertices(),
                                   "delta changes");
      OOC_CUDA(cudaMemsetAsync(change_.data(), 0, change_.bytes(), s), doing);
    }
    exchange_.reserve(plan_.pair_capacity, static_cast<std::uint64_t>(device_.nccl->size()));
  }
  ws_.streams[kDirect].synchronize(doing);
}

template <class P>
void CudaExecutor<P>::restart(const P& program, const vid_t* frontier, std::uint64_t count) {
  const char* doing = "starting the run again";
  program_ = program;
  iterations_ = 0;
  taken_ = false;
  gathering_counted_ = false;
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(next_.data(), 0, next_.bytes(), s), doing);
  OOC_CUDA(cudaMemsetAsync(current_.data(), 0, current_.bytes(), s), doing);
  if (count > 0) {
    OOC_LAUNCH(cuda::mark_list_kernel<vid_t>, grid_for(count), kBlockThreads, s, doing,
               current_.data(), frontier, count);
  }
  if (ranked_)
    launch_mask_owned(current_.data(), device_.owned.data(), words_, grid_for(words_), s);
  ws_.streams[kDirect].synchronize(doing);
}

// Pass 1 of the priority window: the range of urgency over the active vertices at or under the
// floor.
template <class P>
std::optional<UrgencyRange> CudaExecutor<P>::urgency_range() {
  if (words_ == 0) return std::nullopt;
  const char* doing = "choosing the priority window";
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + 1, 0xff, sizeof(unsigned long long), s), doing);
  OOC_CUDA(cudaMemsetAsync(ws_.scalars.data() + 2, 0, sizeof(unsigned long long), s), doing);
  PriorityWindow floored;  // the active vertices at or under the floor
  floored.floor = urgency_floor(program_);
  OOC_LAUNCH(cuda::urgency_range_kernel, grid_for(words_), kBlockThreads, s, doing, current_.data(),
             g_.num_vertices(), view(floored), ws_.scalars.data() + 1, ws_.scalars.data() + 2);
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
  histogram.floor = urgency_floor(program_);
  OOC_LAUNCH((cuda::urgency_histogram_kernel<kPriorityBuckets>), grid_for(words_), kBlockThreads, s,
             doing, current_.data(), g_.num_vertices(), view(histogram), ws_.buckets.data());
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
  OOC_LAUNCH(cuda::survey_kernel, grid_for(words_), kBlockThreads, s, doing, current_.data(),
             g_.num_vertices(), view(window_), device_.partition_first.data(), partitions,
             cost_.request_bytes, ws_.counters.data());
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
    if (!pull) choose_in_file(survey, static_cast<std::uint32_t>(i));
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
    std::uint64_t least = ~0ull;
    for (std::uint32_t i = 0; i < partitions; ++i) {
      if (ws_.host_counters[i].active_vertices > 0)
        least = std::min<std::uint64_t>(least, ws_.host_counters[i].most_urgent);
    }
    // Over every rank's frontier: a rank's vertices gather from all of them.
    if (link_ != nullptr) link_->all_reduce(std::span<std::uint64_t>(&least, 1), Reduction::min);
    if (least != ~0ull) {
      floor_ = program_.pull_floor(static_cast<Value>(cuda::from_order_key(least)));
      has_floor_ = true;
    }
  }
  if (PullFloorProgram<P> || !gathering_counted_) {
    OOC_LAUNCH(cuda::mark_kernel, warp_grid_for(words_), kBlockThreads, s, doing, gather_.data(), n,
               GatherTest<Value>{values_.data(), pull_device_.offsets.data(), floor_, has_floor_});
    // A rank gathers into its own vertices alone: it holds only their lists.
    if (ranked_)
      launch_mask_owned(gather_.data(), device_.owned.data(), words_, grid_for(words_), s);
    OOC_CUDA(cudaMemsetAsync(counters, 0, partitions * sizeof(cuda::PartitionCounters), s), doing);
    OOC_LAUNCH(cuda::survey_kernel, grid_for(words_), kBlockThreads, s, doing, gather_.data(), n,
               view(PriorityWindow{}, true), device_.partition_first.data(), partitions,
               cost_.request_bytes, counters);
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
void CudaExecutor<P>::execute(std::span<const Task> tasks, IterationStats& stats) {
  const char* doing = "running the iteration's tasks";
  if (!taken_) take_work(stats, doing);  // the iteration's first run (a rank may run several)
  const cuda::RangeSet all = start_tasks(tasks, work_bits(), doing);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const cuda::RangeSet ranges = ranges_of(all, t);
    switch (tasks[t].engine) {
      case TransferEngine::filter:
        read_ahead_after(tasks, t);
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
  finish_tasks(stats, doing);
  ahead_.clear();  // every task staged ahead has run
}

template <class P>
void CudaExecutor<P>::take_work(IterationStats& stats, const char* doing) {
  const cudaStream_t s = stream(kDirect);
  stats.link_bandwidth = cost_.link_bandwidth;
  stats.zerocopy_round_trip = cost_.zerocopy_round_trip;
  OOC_LAUNCH(cuda::take_kernel, grid_for(words_), kBlockThreads, s, doing, current_.data(),
             work_.data(), g_.num_vertices(), view(window_), window_.holds_back());
  if constexpr (kAccumulative && kCanPull) {
    if (pulling_) {  // the frontier's messages, before any vertex gathers
      OOC_LAUNCH(cuda::send_kernel, grid_for(g_.num_vertices()), kBlockThreads, s, doing, program_,
                 values_.data(), deltas_.data(), sent_.data(), work_.data(), device_.offsets.data(),
                 g_.num_vertices());
      // A rank's vertices gather from every rank's frontier: the messages are summed over ranks
      // (each rank's are zero outside its own frontier).
      if (ranked_) {
        RankExchange::in_nccl(ws_.streams[kDirect], stats, doing, [&] {
          device_.nccl->all_reduce(sent_.data(), g_.num_vertices(), Reduction::sum, s);
        });
        stats.exchange_bytes += std::uint64_t{g_.num_vertices()} * sizeof(Value);
      }
    }
  }
  taken_ = true;
}

template <class P>
void CudaExecutor<P>::advance_frontier() {
  const char* doing = "merging the frontier";
  taken_ = false;
  if (ranked_) {
    launch_merge_owned(current_.data(), next_.data(), device_.owned.data(), words_,
                       grid_for(words_), stream(kDirect));
  } else {
    OOC_LAUNCH(cuda::merge_frontier_kernel, grid_for(words_), kBlockThreads, stream(kDirect), doing,
               current_.data(), next_.data(), words_);
  }
  if constexpr (SettlingProgram<P>) {
    OOC_LAUNCH(cuda::settle_kernel, warp_grid_for(words_), kBlockThreads, stream(kDirect),
               "settling the vertices", program_, current_.data(), g_.num_vertices(), iterations_);
    if (ranked_) {
      launch_mask_owned(current_.data(), device_.owned.data(), words_, grid_for(words_),
                        stream(kDirect));
    }
  }
  ++iterations_;
  ws_.streams[kDirect].synchronize(doing);
}

template <class P>
double CudaExecutor<P>::pending_with_edges() {
  if constexpr (!kAccumulative) {
    return 0;
  } else {
    const char* doing = "summing the pending deltas";
    if (pending_.bytes() == 0) pending_ = DeviceArray<double>(1, "the pending deltas' sum");
    const cudaStream_t s = stream(kDirect);
    OOC_CUDA(cudaMemsetAsync(pending_.data(), 0, pending_.bytes(), s), doing);
    OOC_LAUNCH(cuda::pending_kernel<Value>, grid_for(g_.num_vertices()), kBlockThreads, s, doing,
               deltas_.data(), lists(false).offsets.data(), g_.num_vertices(), pending_.data());
    double sum = 0;
    OOC_CUDA(cudaMemcpyAsync(&sum, pending_.data(), sizeof sum, cudaMemcpyDeviceToHost, s), doing);
    ws_.streams[kDirect].synchronize(doing);
    return sum;
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

#include "ooc/engine/cuda/executor_exchange.cuh"
#include "ooc/engine/cuda/executor_loop.cuh"
#include "ooc/engine/cuda/executor_pull.cuh"
#include "ooc/engine/cuda/executor_tasks.cuh"
