#pragma once
// The CPU backend (oneTBB): runs the same task plan as the CUDA backend. Filter tasks copy their
// partitions into a staging buffer and process from there; compaction tasks gather the active
// lists with the compaction engine into staging; zero-copy, unified and resident tasks read the
// CSR in place. It is not a simulator of costs: the bytes it reports are what each engine would
// move over PCIe, so that plans can be compared on machines without a GPU. In an iteration that
// pulls (direction.hpp), the same tasks bring the lists of the vertices that gather instead of
// the frontier's, and those vertices gather along them (pull.hpp): their own lists on a symmetric
// graph, their in-lists on a directed one (Lists, executor.hpp). The driver makes the scheduling
// decisions (the priority window, the direction) from what this executor measures.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/detail/cpu_frontier.hpp"
#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/detail/host_tier.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/pull.hpp"
#include "ooc/kernels/bitmap.hpp"
#include "ooc/kernels/cpu_advance.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/transfer/compaction.hpp"

namespace ooc::detail {

inline constexpr std::uint64_t kUnifiedPageBytes = 4096;

// Staging for filter and compaction tasks, sized by the memory plan.
struct CpuStaging {
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;
  Buffer<vid_t> vertices;
  Buffer<eid_t> offsets;

  CpuStaging(bool weighted, const MemoryPlan& plan)
      : targets(Buffer<vid_t>::allocate(plan.staging_edges)),
        weights(Buffer<std::uint32_t>::allocate(weighted ? plan.staging_edges : 0)),
        vertices(Buffer<vid_t>::allocate(plan.staging_vertices)),
        offsets(Buffer<eid_t>::allocate(plan.staging_vertices + 1)) {}
};

struct CpuLoopLocal;  // cpu_frontier_loop.hpp

template <class P>
class CpuExecutor final : public ValuesExecutor<typename P::Value>, private CpuFrontier {
  using Value = typename P::Value;
  using Clock = std::chrono::steady_clock;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;

 public:
  // `pull`: the lists the pull direction reads. `rank`: in a distributed run, the vertices of
  // this rank's partitions (it processes only those) and the ranks' host link; empty: one rank.
  // `tier`: a graph beyond host memory's (host_tier.hpp), whose tasks read the lists host memory
  // does not hold from the file first; null: every list is in memory.
  CpuExecutor(const Graph& g, std::span<const Partition> parts, Lists pull, const P& program,
              const EngineOptions& options, const MemoryPlan& plan, RankView rank = {},
              HostTier* tier = nullptr)
      : CpuFrontier(g, parts),
        program_(program),
        options_(options),
        plan_(plan),
        owned_(rank.owned),
        link_(rank.link),
        layout_(rank.layout),
        tier_(tier),
        pull_lists_{&pull.graph, pull.partitions, plan.compressed && &pull.graph == &g},
        staging_(P::needs_weights && g.weighted(), plan),
        values_(Buffer<Value>::allocate(g.num_vertices())),
        deltas_(Buffer<Value>::allocate(kAccumulative ? g.num_vertices() : 0)) {
    initialise();
  }

  ScheduleFacts facts() const override {
    return schedule_facts(program_, options_, plan_, g_.num_vertices(), may_pull_, edge_bytes_,
                          options_.cost.request_bytes);
  }
  std::optional<UrgencyRange> urgency_range() override;
  void urgency_loads(const UrgencyRange& range, std::span<BucketLoad> loads) override;
  void survey(const PriorityWindow& window, std::span<PartitionSurvey> out) override;
  void survey_pull(std::span<PartitionSurvey> out) override;
  void set_direction(bool pull) override {
    pulling_ = pull;
    if (pull) surveys_ = pull_surveys_;
  }
  void execute(std::span<const Task> tasks, IterationStats& stats) override;
  void exchange(Communicator& communicator, IterationStats& stats) override;
  void exchange_slots(Communicator& communicator, IterationStats& stats) requires SharingProgram<P>;
  void scatter_deltas(Communicator& communicator, IterationStats& stats);
  void advance_frontier() override;
  double pending_with_edges() override {
    if constexpr (!kAccumulative) return 0;
    return tbb::parallel_reduce(
        tbb::blocked_range<vid_t>(0, g_.num_vertices(), 1 << 14), 0.0,
        [&](const tbb::blocked_range<vid_t>& r, double sum) {
          for (vid_t v = r.begin(); v < r.end(); ++v)
            if (g_.degree(v) > 0) sum += deltas_[v];
          return sum;
        },
        std::plus<>());
  }
  void finish(Communicator& communicator) override;
  bool run_frontier_loop(const FrontierLoop& loop, std::vector<IterationStats>& levels) override;

  // Runs again with `program`, from `frontier` (this rank's own vertices of it are taken), on
  // this run's buffers; the values stay as the last run left them. kcore.cpp runs its shells so:
  // its values are unused, and a frontier it lists spares a pass over every vertex per shell.
  void restart(const P& program, std::span<const vid_t> frontier) {
    program_ = program;
    iterations_ = 0;
    current_.clear();
    for (const vid_t v : frontier)
      if (owned_ == nullptr || owned_->test(v)) current_.set(v);
  }

  void read_values(Value* values, Value* deltas) override {
    std::memcpy(values, values_.data(), values_.size_bytes());
    if (!deltas_.empty()) std::memcpy(deltas, deltas_.data(), deltas_.size_bytes());
  }
  Buffer<Value>& values() { return values_; }

 private:
  void initialise();
  double urgency(vid_t v) const {
    return ooc::urgency<P>(values_[v], kAccumulative ? deltas_[v] : Value{}, g_.degree(v));
  }
  bool admitted(vid_t v) const { return window_.admits(urgency(v)); }
  // A distributed run: whether an accumulative program's exchange is a reduce-scatter.
  bool scatters() const {
    return layout_->scatters(static_cast<std::uint32_t>(link_->size()), g_.num_vertices());
  }
  // Lists the engines bring: a graph's, its partitions (the same vertex ranges, their edges in
  // these lists), and whether they are read compressed (in-lists never are).
  struct ListSet {
    const Graph* g;
    std::span<const Partition> parts;
    bool compressed;
  };
  // What this iteration reads: the out-lists, or the pull direction's lists when it pulls.
  const ListSet& lists() const { return pulling_ ? pull_lists_ : push_lists_; }
  PartitionSurvey survey_partition(const ListSet& l, std::size_t partition, const Bitmap& bits,
                                   bool gathering) const;
  static std::uint64_t compressed_filter_bytes(const Graph& g, vid_t first, vid_t last, eid_t edges,
                                               std::uint32_t edge_bytes) {
    return ooc::compressed_filter_bytes(g.compressed.range_bytes(first, last), edges, edge_bytes,
                                        g.compressed.weight_bits());
  }
  // Copies (or decodes) a filter task's partitions into staging; returns the first edge staged.
  eid_t stage(const Task& task, IterationStats& stats);
  VertexEdges staged_edges(vid_t v, eid_t base) const {
    const Graph& g = *lists().g;
    const eid_t at = g.offsets[v] - base;
    return {v, staging_.targets.data() + at, weighted_ ? staging_.weights.data() + at : nullptr,
            g.degree(v)};
  }
  VertexEdges edges_in_place(vid_t v) const {
    const Graph& g = *lists().g;
    const eid_t at = g.offsets[v];
    return {v, g.targets.data() + at, weighted_ ? g.weights.data() + at : nullptr, g.degree(v)};
  }
  // `next`: the filter task after it, whose partitions the host tier reads while this one runs.
  void run_filter(const Task& task, IterationStats& stats, const Task* next);
  void run_compaction(const Task& task, IterationStats& stats);
  // Gathers the lists of `vertices` into staging, batch by batch, and hands each batch to
  // process(count, edges_of), which returns the edges it processed; returns the edges gathered.
  template <class Process>
  eid_t over_batches(std::span<const vid_t> vertices, ListSource from, IterationStats& stats,
                     Process&& process);
  eid_t push(std::size_t count, const auto& edges_of) {
    return advance_cpu(program_, arrays(), next_, count, edges_of);
  }
  void run_in_place(const Task& task, IterationStats& stats);
  // The bytes of a compaction task over `vertices` whose lists hold `edges` edges.
  std::uint64_t compaction_bytes(std::span<const vid_t> vertices, eid_t edges) const;

  // The pull direction (direction.hpp, pull.hpp).
  static constexpr bool kCanPull = PullProgram<P>;
  // The frontier the iteration sends: the admitted active vertices leave `current`; an
  // accumulative program's deltas become this iteration's messages (sent_).
  void take_sources();
  void run_pull(const Task& task, IterationStats& stats);
  // The lines that reading the first `degree` edges of v's list in place touches, as the GPU
  // reads them: its targets (compressed ones, whole, through a warp's line window, `held`:
  // window_lines), and its weights (packed with compressed lists, when the graph packs them)
  // when the program reads them.
  std::uint64_t read_lines(const ListSet& l, vid_t v, eid_t degree, std::uint64_t& held) const {
    const Graph& g = *l.g;
    const std::uint32_t line = options_.cost.request_bytes;
    const eid_t first = g.offsets[v];
    const std::uint64_t targets =
        l.compressed
            ? window_lines(g.compressed.offsets[v],
                           g.compressed.offsets[v + 1] - g.compressed.offsets[v], line, held)
            : lines_spanned(first * sizeof(vid_t), degree * sizeof(vid_t), line);
    if (!weighted_) return targets;
    return targets +
           weight_lines(first, degree, l.compressed ? g.compressed.weight_bits() : 32, line);
  }
  std::uint64_t unified_bytes(std::span<const vid_t> vertices);
  // The frontier loop (cpu_frontier_loop.hpp): v's out-edges as the loop reads them, in place or
  // decoded into `local`'s buffers.
  VertexEdges loop_edges(vid_t v, CpuLoopLocal& local) const;

  ProgramArrays<P> arrays() { return {values_.data(), deltas_.data()}; }
  static double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }

  // Weights move only for programs that read them (BFS on a weighted graph moves 4 bytes/edge).
  bool weighted_ = P::needs_weights && g_.weighted();
  std::uint32_t edge_bytes_ = weighted_ ? 8u : 4u;
  P program_;
  EngineOptions options_;
  MemoryPlan plan_;
  const Bitmap* owned_;
  Communicator* link_;
  const OwnedLayout* layout_;
  HostTier* tier_;
  ListSet push_lists_{&g_, parts_, plan_.compressed};
  ListSet pull_lists_;
  CpuStaging staging_;
  Buffer<Value> values_, deltas_;
  // Distributed runs: accumulative programs' deltas as they were after the last exchange, and
  // their change since; monotone programs' own values as they went into the last reduction.
  Buffer<Value> agreed_, change_;
  std::vector<PartitionSurvey> surveys_;
  PriorityWindow window_;
  std::uint32_t iterations_ = 0;               // ended (a settling program's iteration)
  Bitmap touched_pages_, touched_pull_pages_;  // unified: of the out-lists, of the in-lists
  // The pull direction: whether this run may pull and this iteration does, the vertices that
  // gather, what an accumulative program's frontier sends, and the floor (PullFloorProgram).
  bool may_pull_ = kCanPull && plan_.pull;
  bool pulling_ = false;
  bool sources_taken_ = false;
  Bitmap gathering_;
  Buffer<Value> sent_;
  Value floor_{};
  bool has_floor_ = false;
  std::vector<PartitionSurvey> pull_surveys_;
  Bitmap far_;  // the frontier loop's far pile (allocated by its first run with piles)
};

template <class P>
void CpuExecutor<P>::advance_frontier() {
  advance(owned_);
  if constexpr (SettlingProgram<P>) {
    const vid_t n = g_.num_vertices();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, current_.num_words(), 1024),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t w = r.begin(); w < r.end(); ++w) {
                          std::uint64_t word = 0;
                          for (std::size_t b = 0; b < 64 && (w << 6) + b < n; ++b) {
                            if (program_.settle(static_cast<vid_t>((w << 6) + b), iterations_))
                              word |= std::uint64_t{1} << b;
                          }
                          current_.words()[w] |=
                              owned_ != nullptr ? word & owned_->words()[w] : word;
                        }
                      });
  }
  ++iterations_;
}

template <class P>
void CpuExecutor<P>::initialise() {
  const vid_t n = g_.num_vertices();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, current_.num_words(), 1024),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t w = r.begin(); w < r.end(); ++w) {
                        std::uint64_t word = 0;
                        for (std::size_t b = 0; b < 64 && (w << 6) + b < n; ++b) {
                          const auto v = static_cast<vid_t>((w << 6) + b);
                          values_[v] = program_.init(v);
                          if constexpr (P::kind == ProgramKind::accumulative)
                            deltas_[v] = program_.init_delta(v);
                          if (program_.active_at_start(v)) word |= std::uint64_t{1} << b;
                        }
                        current_.words()[w] = owned_ != nullptr ? word & owned_->words()[w] : word;
                      }
                    });
  if (owned_ != nullptr) {
    agreed_ = kAccumulative ? Buffer<Value>::copy_of(deltas_.span()) : Buffer<Value>::allocate(n);
    if constexpr (kAccumulative) {  // in the ranks' layout; its padding stays 0, never read
      change_ = Buffer<Value>::allocate(
          scatters() ? layout_->slots(static_cast<std::uint32_t>(link_->size())) : n);
      std::fill(change_.begin(), change_.end(), Value{});
    }
  }
  if (options_.transfer == TransferPolicy::unified) {
    touched_pages_ = Bitmap(static_cast<std::size_t>(plan_.edge_bytes / kUnifiedPageBytes + 1));
    if (pull_lists_.g != &g_) touched_pull_pages_ = Bitmap(touched_pages_.size());
  }
  if (may_pull_) {
    gathering_ = Bitmap(n);
    pull_surveys_.resize(parts_.size());
    if constexpr (kAccumulative) sent_ = Buffer<Value>::allocate(n);
  }
}

template <class P>
void CpuExecutor<P>::execute(std::span<const Task> tasks, IterationStats& stats) {
  stats.link_bandwidth = options_.cost.link_bandwidth;  // the CPU backend never adapts them
  stats.zerocopy_round_trip = options_.cost.zerocopy_round_trip;
  if (pulling_) {
    if (!sources_taken_) take_sources();
    sources_taken_ = true;
    for (const Task& task : tasks)
      run_pull(task, stats);
    return;
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Task& task = tasks[i];
    const bool filter = task.engine == TransferEngine::filter;
    // A filter task stages its partitions whole, read while the task before ran when that was a
    // filter task too; the others read their active lists alone, which they fetch once they have
    // taken them.
    if (tier_ != nullptr && filter) tier_->fetch(task.partitions, plan_.compressed, stats);
    switch (task.engine) {
      case TransferEngine::filter: {
        const bool next_filters =
            i + 1 < tasks.size() && tasks[i + 1].engine == TransferEngine::filter;
        run_filter(task, stats, next_filters ? &tasks[i + 1] : nullptr);
        break;
      }
      case TransferEngine::compaction:
        run_compaction(task, stats);
        break;
      default:
        run_in_place(task, stats);
        break;
    }
    if (tier_ != nullptr && !filter) tier_->release();  // run_filter's, once staged
  }
}

template <class P>
eid_t CpuExecutor<P>::stage(const Task& task, IterationStats& stats) {
  const ListSet& l = lists();
  const Graph& g = *l.g;
  const Partition& first = l.parts[task.partitions.front()];
  const Partition& last = l.parts[task.partitions.back()];
  const eid_t base = first.first_edge, edges = last.last_edge - first.first_edge;
  const auto start = Clock::now();
  std::uint64_t bytes = edges * edge_bytes_;
  if (edges > 0) {  // an empty graph's arrays may be null
    if (l.compressed) {
      decode_lists(g, first.first_vertex, last.last_vertex, staging_.targets.data());
      bytes = compressed_filter_bytes(g, first.first_vertex, last.last_vertex, edges, edge_bytes_);
    } else {
      std::memcpy(staging_.targets.data(), g.targets.data() + base, edges * sizeof(vid_t));
    }
    if (weighted_ && l.compressed && g.compressed.packs_weights()) {
      unpack_weights(g.compressed, base, edges, staging_.weights.data());
    } else if (weighted_) {
      std::memcpy(staging_.weights.data(), g.weights.data() + base, edges * sizeof(std::uint32_t));
    }
  }
  stats.transfer_seconds += since(start);
  stats.bytes[static_cast<std::size_t>(TransferEngine::filter)] += bytes;
  return base;
}

template <class P>
void CpuExecutor<P>::run_filter(const Task& task, IterationStats& stats, const Task* next) {
  const eid_t base = stage(task, stats);
  // Staged, its lists go back to the file, and the next task's are read while this one runs:
  // host memory holds one task's at a time, as without the read ahead.
  if (tier_ != nullptr) {
    tier_->release();
    if (next != nullptr) tier_->fetch_ahead(next->partitions, plan_.compressed);
  }
  const auto start = Clock::now();
  const auto staged = [&](std::span<const vid_t> vertices) {
    return push(vertices.size(), [&](std::size_t i) { return staged_edges(vertices[i], base); });
  };
  const auto admit = [&](vid_t v) { return admitted(v); };
  stats.edges_processed += staged(take_current(task.partitions, admit));
  if (task.reprocess) {
    stats.edges_processed += staged(take_next(parts_[task.partitions.front()].first_vertex,
                                              parts_[task.partitions.back()].last_vertex, admit));
  }
  stats.compute_seconds += since(start);
}

template <class P>
void CpuExecutor<P>::run_compaction(const Task& task, IterationStats& stats) {
  const std::span<const vid_t> active =
      take_current(task.partitions, [&](vid_t v) { return admitted(v); });
  if (tier_ != nullptr) tier_->fetch_lists(task.partitions, active, plan_.compressed, stats);
  // Over compressed lists the GPU would receive them compressed and decode them; here the
  // gather decodes.
  const eid_t edges =
      over_batches(active, plan_.compressed ? ListSource::compressed : ListSource::raw, stats,
                   [&](std::size_t count, const auto& edges_of) { return push(count, edges_of); });
  stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
      compaction_bytes(active, edges);
}

template <class P>
std::uint64_t CpuExecutor<P>::compaction_bytes(std::span<const vid_t> vertices, eid_t edges) const {
  if (!lists().compressed) return edges * edge_bytes_ + vertices.size() * kCompactionIndexBytes;
  const CompressedTargets& c = lists().g->compressed;
  const std::uint64_t list_bytes = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, vertices.size(), 4096), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
        for (std::size_t i = r.begin(); i < r.end(); ++i)
          sum += c.offsets[vertices[i] + 1] - c.offsets[vertices[i]];
        return sum;
      },
      std::plus<>());
  return compressed_compaction_bytes(list_bytes, edges, vertices.size(), edge_bytes_,
                                     c.weight_bits());
}

template <class P>
template <class Process>
eid_t CpuExecutor<P>::over_batches(std::span<const vid_t> active, ListSource from,
                                   IterationStats& stats, Process&& process) {
  CompactionBuffer buffer{staging_.vertices.data(), staging_.offsets.data(),
                          staging_.targets.data(),  weighted_ ? staging_.weights.data() : nullptr,
                          staging_.vertices.size(), staging_.targets.size()};
  eid_t edges = 0;
  for (std::size_t done = 0; done < active.size();) {
    auto start = Clock::now();
    const CompactedBatch batch = compact(*lists().g, active.subspan(done), buffer, from);
    stats.transfer_seconds += since(start);
    edges += batch.edges;
    start = Clock::now();
    stats.edges_processed += process(batch.vertices, [&](std::size_t i) {
      const eid_t at = buffer.offsets[i];
      return VertexEdges{buffer.vertices[i], buffer.targets + at,
                         buffer.weights == nullptr ? nullptr : buffer.weights + at,
                         buffer.offsets[i + 1] - at};
    });
    stats.compute_seconds += since(start);
    done += batch.vertices;
  }
  return edges;
}

// Pages of the edge arrays touched for the first time: what read-mostly managed memory migrates
// when the edges fit the GPU (the only case the unified policy accepts).
template <class P>
std::uint64_t CpuExecutor<P>::unified_bytes(std::span<const vid_t> vertices) {
  const Graph& g = *lists().g;
  Bitmap& touched = &g == &g_ ? touched_pages_ : touched_pull_pages_;
  std::uint64_t pages = 0;
  for (const vid_t v : vertices) {
    const std::uint64_t first = g.offsets[v] * sizeof(vid_t) / kUnifiedPageBytes;
    const std::uint64_t last =
        (g.offsets[v + 1] * sizeof(vid_t) + kUnifiedPageBytes - 1) / kUnifiedPageBytes;
    for (std::uint64_t page = first; page < last; ++page)
      pages += touched.set_atomic(page) ? 1 : 0;
  }
  return pages * kUnifiedPageBytes * (weighted_ ? 2 : 1);
}

template <class P>
void CpuExecutor<P>::run_in_place(const Task& task, IterationStats& stats) {
  const std::span<const vid_t> active =
      take_current(task.partitions, [&](vid_t v) { return admitted(v); });
  if (tier_ != nullptr) tier_->fetch_lists(task.partitions, active, plan_.compressed, stats);
  std::uint64_t bytes = 0;
  if (task.engine == TransferEngine::zerocopy) {
    for (const std::uint32_t p : task.partitions)
      bytes += surveys_[p].activity.requests * options_.cost.request_bytes;
  } else if (task.engine == TransferEngine::unified) {
    bytes = unified_bytes(active);
  }
  stats.bytes[static_cast<std::size_t>(task.engine)] += bytes;
  if (task.engine == TransferEngine::zerocopy && plan_.compressed) {
    // As the GPU reads compressed lists in place and decodes them: decoded here into staging.
    over_batches(active, ListSource::compressed, stats,
                 [&](std::size_t count, const auto& edges_of) { return push(count, edges_of); });
    return;
  }
  const auto start = Clock::now();
  stats.edges_processed +=
      push(active.size(), [&](std::size_t i) { return edges_in_place(active[i]); });
  stats.compute_seconds += since(start);
}

}  // namespace ooc::detail

// The ranks' exchange, the pull side's and the survey's member definitions.
#include "ooc/engine/detail/cpu_exchange.hpp"       // IWYU pragma: export
#include "ooc/engine/detail/cpu_frontier_loop.hpp"  // IWYU pragma: export
#include "ooc/engine/detail/cpu_pull.hpp"           // IWYU pragma: export
#include "ooc/engine/detail/cpu_survey.hpp"         // IWYU pragma: export
