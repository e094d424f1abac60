#pragma once
// The CPU backend (oneTBB): runs the same task plan as the CUDA backend. Filter tasks copy their
// partitions into a staging buffer and process from there; compaction tasks gather the active
// lists with the compaction engine into staging; zero-copy, unified and resident tasks read the
// CSR in place. It is not a simulator of costs: the bytes it reports are what each engine would
// move over PCIe, so that plans can be compared on machines without a GPU.
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/kernels/bitmap.hpp"
#include "ooc/kernels/cpu_advance.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/transfer/compaction.hpp"

namespace ooc::detail {

inline constexpr std::uint64_t kUnifiedPageBytes = 4096;

// The frontier of one run. `current` holds every active vertex; a task takes the ones it
// processes out of it (vertices a priority window defers stay), and relaxations mark `next`,
// which joins `current` when the iteration ends.
class CpuFrontier {
 public:
  CpuFrontier(const Graph& g, std::span<const Partition> parts)
      : g_(g), parts_(parts), current_(g.num_vertices()), next_(g.num_vertices()) {}

  // Takes the admitted active vertices of the given partitions, in ascending order (parallel
  // over partitions).
  template <class Admit>
  std::span<const vid_t> take_current(std::span<const std::uint32_t> partitions, Admit&& admit);
  // Takes the admitted vertices of [first, last) activated since the iteration began.
  template <class Admit>
  std::span<const vid_t> take_next(vid_t first, vid_t last, Admit&& admit);
  // current |= next (only the owned vertices' bits, when `owned` is given); next = {}
  void advance(const Bitmap* owned = nullptr);
  Bitmap& current() { return current_; }
  Bitmap& next() { return next_; }

 protected:
  // Appends the admitted set bits of [first, last) to out and clears them (atomically per word:
  // partitions may share a word).
  template <class Admit>
  static void take(Bitmap& bits, vid_t first, vid_t last, Admit&& admit, std::vector<vid_t>& out);

  const Graph& g_;
  std::span<const Partition> parts_;
  Bitmap current_, next_;
  std::vector<vid_t> active_;
  std::vector<std::vector<vid_t>> per_partition_;
};

template <class Admit>
void CpuFrontier::take(Bitmap& bits, vid_t first, vid_t last, Admit&& admit,
                       std::vector<vid_t>& out) {
  if (first >= last) return;
  for (std::size_t w = first >> 6; w <= (std::size_t{last} - 1) >> 6; ++w) {
    std::uint64_t word = bits.words()[w];
    if (w == first >> 6) word &= ~std::uint64_t{0} << (first & 63);
    if (w == (std::size_t{last} - 1) >> 6 && (last & 63) != 0)
      word &= (std::uint64_t{1} << (last & 63)) - 1;
    std::uint64_t taken = 0;
    for (; word != 0; word &= word - 1) {
      const auto bit = static_cast<std::size_t>(std::countr_zero(word));
      const auto v = static_cast<vid_t>((w << 6) + bit);
      if (!admit(v)) continue;
      out.push_back(v);
      taken |= std::uint64_t{1} << bit;
    }
    if (taken != 0)
      std::atomic_ref<std::uint64_t>(bits.words()[w]).fetch_and(~taken, std::memory_order_relaxed);
  }
}

template <class Admit>
std::span<const vid_t> CpuFrontier::take_current(std::span<const std::uint32_t> partitions,
                                                 Admit&& admit) {
  per_partition_.resize(partitions.size());
  tbb::parallel_for(std::size_t{0}, partitions.size(), [&](std::size_t i) {
    per_partition_[i].clear();
    take(current_, parts_[partitions[i]].first_vertex, parts_[partitions[i]].last_vertex, admit,
         per_partition_[i]);
  });
  active_.clear();
  for (const auto& list : per_partition_)
    active_.insert(active_.end(), list.begin(), list.end());
  return active_;
}

template <class Admit>
std::span<const vid_t> CpuFrontier::take_next(vid_t first, vid_t last, Admit&& admit) {
  active_.clear();
  take(next_, first, last, admit, active_);
  return active_;
}

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

template <class P>
class CpuExecutor final : public ValuesExecutor<typename P::Value>, private CpuFrontier {
  using Value = typename P::Value;
  using Clock = std::chrono::steady_clock;
  static constexpr bool kAccumulative = P::kind == ProgramKind::accumulative;

 public:
  // `owned`: in a distributed run, the vertices of this rank's partitions (it processes only
  // those); null: every vertex.
  CpuExecutor(const Graph& g, std::span<const Partition> parts, const P& program,
              const EngineOptions& options, const MemoryPlan& plan, const Bitmap* owned = nullptr)
      : CpuFrontier(g, parts),
        program_(program),
        options_(options),
        plan_(plan),
        owned_(owned),
        staging_(P::needs_weights && g.weighted(), plan),
        values_(Buffer<Value>::allocate(g.num_vertices())),
        deltas_(Buffer<Value>::allocate(kAccumulative ? g.num_vertices() : 0)) {
    initialise();
  }

  void survey(std::vector<PartitionSurvey>& out) override;
  void execute(std::span<const Task> tasks, IterationStats& stats) override;
  void exchange(Communicator& communicator, IterationStats& stats) override;
  void advance_frontier() override { advance(owned_); }
  void finish(Communicator& communicator) override;

  void read_values(Value* values, Value* deltas) override {
    std::memcpy(values, values_.data(), values_.size_bytes());
    if (!deltas_.empty()) std::memcpy(deltas, deltas_.data(), deltas_.size_bytes());
  }
  Buffer<Value>& values() { return values_; }

 private:
  void initialise();
  double urgency(vid_t v) const {
    if constexpr (P::kind == ProgramKind::monotone) {
      return urgency_key(static_cast<double>(values_[v]), false);
    } else {
      return urgency_key(
          static_cast<double>(deltas_[v]) / static_cast<double>(std::max<eid_t>(g_.degree(v), 1)),
          true);
    }
  }
  bool admitted(vid_t v) const { return window_.admits(urgency(v)); }
  void choose_priority_window();
  PartitionSurvey survey_partition(const Partition& p) const;
  std::uint64_t compressed_filter_bytes(vid_t first, vid_t last, eid_t edges) const {
    return ooc::compressed_filter_bytes(g_.compressed.range_bytes(first, last), edges, edge_bytes_,
                                        g_.compressed.weight_bits());
  }
  void run_filter(const Task& task, IterationStats& stats);
  void run_compaction(const Task& task, IterationStats& stats);
  // Gathers the lists of `active` into staging, batch by batch, and advances each batch;
  // returns the edges gathered.
  eid_t advance_batches(std::span<const vid_t> active, ListSource from, IterationStats& stats);
  void run_in_place(const Task& task, IterationStats& stats);
  eid_t advance_in_place(std::span<const vid_t> vertices);
  // The lines that reading v's list in place touches, as the GPU reads them: its targets
  // (compressed ones through a warp's line window, `held`: window_lines), and its weights (packed
  // with compressed lists, when the graph packs them) when the program reads them.
  std::uint64_t requests(vid_t v, std::uint64_t& held) const {
    const std::uint32_t line = options_.cost.request_bytes;
    const eid_t first = g_.offsets[v], degree = g_.degree(v);
    const std::uint64_t lists =
        plan_.compressed
            ? window_lines(g_.compressed.offsets[v],
                           g_.compressed.offsets[v + 1] - g_.compressed.offsets[v], line, held)
            : lines_spanned(first * sizeof(vid_t), degree * sizeof(vid_t), line);
    if (!weighted_) return lists;
    return lists +
           weight_lines(first, degree, plan_.compressed ? g_.compressed.weight_bits() : 32, line);
  }
  std::uint64_t unified_bytes(std::span<const vid_t> vertices);

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
  CpuStaging staging_;
  Buffer<Value> values_, deltas_;
  // Distributed runs: the array the ranks combine (values, or deltas for accumulative
  // programs) as it was after the last exchange, and its change since (accumulative).
  Buffer<Value> agreed_, change_;
  std::vector<PartitionSurvey> surveys_;
  PriorityWindow window_;
  Bitmap touched_pages_;
};

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
    agreed_ = Buffer<Value>::copy_of(kAccumulative ? deltas_.span() : values_.span());
    if constexpr (kAccumulative) change_ = Buffer<Value>::allocate(n);
  }
  if (options_.transfer == TransferPolicy::unified) {
    touched_pages_ = Bitmap(static_cast<std::size_t>(plan_.edge_bytes / kUnifiedPageBytes + 1));
  }
}

template <class P>
PartitionSurvey CpuExecutor<P>::survey_partition(const Partition& p) const {
  PartitionSurvey s;
  s.activity.edges = p.num_edges();
  if (plan_.compressed) {
    s.activity.filter_bytes = compressed_filter_bytes(p.first_vertex, p.last_vertex, p.num_edges());
  }
  double most_urgent = std::numeric_limits<double>::infinity();
  std::uint64_t word = ~std::uint64_t{0}, held = 0;  // the GPU's warp per 64-vertex word
  std::uint64_t list_bytes = 0;                      // of the active compressed lists
  current_.for_each_set(p.first_vertex, p.last_vertex, [&](std::size_t i) {
    const auto v = static_cast<vid_t>(i);
    if (i / 64 != word) {
      word = i / 64;
      held = ~std::uint64_t{0};
    }
    if (!admitted(v)) return;
    most_urgent = std::min(most_urgent, urgency(v));
    const eid_t degree = g_.degree(v);
    ++s.activity.active_vertices;
    s.activity.active_edges += degree;
    s.activity.requests += requests(v, held);
    if (plan_.compressed) list_bytes += g_.compressed.offsets[v + 1] - g_.compressed.offsets[v];
    if constexpr (P::kind == ProgramKind::accumulative)
      s.priority += static_cast<double>(deltas_[v]);
  });
  // Larger priority runs first: the largest pending delta, or the most urgent value.
  if constexpr (P::kind == ProgramKind::monotone) s.priority = -most_urgent;
  if (plan_.compressed && s.activity.active_vertices > 0) {
    s.activity.compacted_bytes =
        compressed_compaction_bytes(list_bytes, s.activity.active_edges, s.activity.active_vertices,
                                    edge_bytes_, g_.compressed.weight_bits());
  }
  if (s.activity.active_vertices > 0) {
    s.engine =
        engine_for(options_.transfer, plan_.in_memory, s.activity, edge_bytes_, options_.cost);
  }
  return s;
}

template <class P>
void CpuExecutor<P>::choose_priority_window() {
  window_ = PriorityWindow{};
  if (!options_.priority || !is_ordered<P>()) return;
  // Pass 1: the range of urgency over the active vertices.
  using Range = std::pair<double, double>;
  const Range range = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, parts_.size()),
      Range{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()},
      [&](const tbb::blocked_range<std::size_t>& r, Range acc) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          current_.for_each_set(parts_[i].first_vertex, parts_[i].last_vertex, [&](std::size_t v) {
            const double k = urgency(static_cast<vid_t>(v));
            acc = {std::min(acc.first, k), std::max(acc.second, k)};
          });
        }
        return acc;
      },
      [](Range a, Range b) {
        return Range{std::min(a.first, b.first), std::max(a.second, b.second)};
      });
  const UrgencyRange urgency_range{range.first, range.second};
  // Pass 2: active edges (and pending delta) per urgency bucket.
  using Histogram = std::array<BucketLoad, kPriorityBuckets>;
  tbb::combinable<Histogram> local([] { return Histogram{}; });
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t i) {
    Histogram& h = local.local();
    current_.for_each_set(parts_[i].first_vertex, parts_[i].last_vertex, [&](std::size_t i_v) {
      const auto v = static_cast<vid_t>(i_v);
      BucketLoad& load = h[static_cast<std::size_t>(urgency_range.bucket(urgency(v)))];
      load.edges += g_.degree(v);
      if constexpr (P::kind == ProgramKind::accumulative)
        load.mass += static_cast<double>(deltas_[v]);
    });
  });
  Histogram total{};
  local.combine_each([&](const Histogram& h) {
    for (std::size_t b = 0; b < total.size(); ++b) {
      total[b].edges += h[b].edges;
      total[b].mass += h[b].mass;
    }
  });
  constexpr bool accumulative = P::kind == ProgramKind::accumulative;
  window_ = choose_window(urgency_range, total, accumulative,
                          priority_fraction(options_.priority_fraction, accumulative),
                          options_.priority_min_edges);
}

template <class P>
void CpuExecutor<P>::survey(std::vector<PartitionSurvey>& out) {
  choose_priority_window();
  tbb::parallel_for(std::size_t{0}, parts_.size(),
                    [&](std::size_t i) { out[i] = survey_partition(parts_[i]); });
  surveys_ = out;
}

template <class P>
void CpuExecutor<P>::execute(std::span<const Task> tasks, IterationStats& stats) {
  stats.link_bandwidth = options_.cost.link_bandwidth;  // the CPU backend never adapts them
  stats.zerocopy_round_trip = options_.cost.zerocopy_round_trip;
  for (const Task& task : tasks) {
    switch (task.engine) {
      case Engine::filter:
        run_filter(task, stats);
        break;
      case Engine::compaction:
        run_compaction(task, stats);
        break;
      default:
        run_in_place(task, stats);
        break;
    }
  }
}

template <class P>
void CpuExecutor<P>::run_filter(const Task& task, IterationStats& stats) {
  const Partition& first = parts_[task.partitions.front()];
  const Partition& last = parts_[task.partitions.back()];
  const eid_t base = first.first_edge, edges = last.last_edge - first.first_edge;
  auto start = Clock::now();
  std::uint64_t bytes = edges * edge_bytes_;
  if (edges > 0) {  // an empty graph's arrays may be null
    if (plan_.compressed) {
      decode_lists(g_, first.first_vertex, last.last_vertex, staging_.targets.data());
      bytes = compressed_filter_bytes(first.first_vertex, last.last_vertex, edges);
    } else {
      std::memcpy(staging_.targets.data(), g_.targets.data() + base, edges * sizeof(vid_t));
    }
    if (weighted_ && plan_.compressed && g_.compressed.packs_weights()) {
      unpack_weights(g_.compressed, base, edges, staging_.weights.data());
    } else if (weighted_) {
      std::memcpy(staging_.weights.data(), g_.weights.data() + base, edges * sizeof(std::uint32_t));
    }
  }
  stats.transfer_seconds += since(start);
  stats.bytes[static_cast<std::size_t>(Engine::filter)] += bytes;
  start = Clock::now();
  const auto staged = [&](std::span<const vid_t> vertices) {
    return advance_cpu(program_, arrays(), next_, vertices.size(), [&](std::size_t i) {
      const vid_t v = vertices[i];
      const eid_t at = g_.offsets[v] - base;
      return VertexEdges{v, staging_.targets.data() + at,
                         weighted_ ? staging_.weights.data() + at : nullptr, g_.degree(v)};
    });
  };
  const auto admit = [&](vid_t v) { return admitted(v); };
  stats.edges_processed += staged(take_current(task.partitions, admit));
  if (task.reprocess)
    stats.edges_processed += staged(take_next(first.first_vertex, last.last_vertex, admit));
  stats.compute_seconds += since(start);
}

template <class P>
void CpuExecutor<P>::run_compaction(const Task& task, IterationStats& stats) {
  const std::span<const vid_t> active =
      take_current(task.partitions, [&](vid_t v) { return admitted(v); });
  if (!plan_.compressed) {
    const eid_t edges = advance_batches(active, ListSource::raw, stats);
    stats.bytes[static_cast<std::size_t>(Engine::compaction)] +=
        edges * edge_bytes_ + active.size() * kCompactionIndexBytes;
    return;
  }
  // The GPU would receive the compressed lists and decode them; here the gather decodes.
  const eid_t edges = advance_batches(active, ListSource::compressed, stats);
  const CompressedTargets& c = g_.compressed;
  const std::uint64_t list_bytes = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, active.size(), 4096), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
        for (std::size_t i = r.begin(); i < r.end(); ++i)
          sum += c.offsets[active[i] + 1] - c.offsets[active[i]];
        return sum;
      },
      std::plus<>());
  stats.bytes[static_cast<std::size_t>(Engine::compaction)] +=
      compressed_compaction_bytes(list_bytes, edges, active.size(), edge_bytes_, c.weight_bits());
}

template <class P>
eid_t CpuExecutor<P>::advance_batches(std::span<const vid_t> active, ListSource from,
                                      IterationStats& stats) {
  CompactionBuffer buffer{staging_.vertices.data(), staging_.offsets.data(),
                          staging_.targets.data(),  weighted_ ? staging_.weights.data() : nullptr,
                          staging_.vertices.size(), staging_.targets.size()};
  eid_t edges = 0;
  for (std::size_t done = 0; done < active.size();) {
    auto start = Clock::now();
    const CompactedBatch batch = compact(g_, active.subspan(done), buffer, from);
    stats.transfer_seconds += since(start);
    edges += batch.edges;
    start = Clock::now();
    stats.edges_processed +=
        advance_cpu(program_, arrays(), next_, batch.vertices, [&](std::size_t i) {
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

template <class P>
eid_t CpuExecutor<P>::advance_in_place(std::span<const vid_t> vertices) {
  return advance_cpu(program_, arrays(), next_, vertices.size(), [&](std::size_t i) {
    const vid_t v = vertices[i];
    const eid_t at = g_.offsets[v];
    return VertexEdges{v, g_.targets.data() + at, weighted_ ? g_.weights.data() + at : nullptr,
                       g_.degree(v)};
  });
}

// Pages of the edge arrays touched for the first time: what read-mostly managed memory migrates
// when the edges fit the GPU (the only case the unified policy accepts).
template <class P>
std::uint64_t CpuExecutor<P>::unified_bytes(std::span<const vid_t> vertices) {
  std::uint64_t pages = 0;
  for (const vid_t v : vertices) {
    const std::uint64_t first = g_.offsets[v] * sizeof(vid_t) / kUnifiedPageBytes;
    const std::uint64_t last =
        (g_.offsets[v + 1] * sizeof(vid_t) + kUnifiedPageBytes - 1) / kUnifiedPageBytes;
    for (std::uint64_t page = first; page < last; ++page)
      pages += touched_pages_.set_atomic(page) ? 1 : 0;
  }
  return pages * kUnifiedPageBytes * (weighted_ ? 2 : 1);
}

template <class P>
void CpuExecutor<P>::run_in_place(const Task& task, IterationStats& stats) {
  const std::span<const vid_t> active =
      take_current(task.partitions, [&](vid_t v) { return admitted(v); });
  std::uint64_t bytes = 0;
  if (task.engine == Engine::zerocopy) {
    for (const std::uint32_t p : task.partitions)
      bytes += surveys_[p].activity.requests * options_.cost.request_bytes;
  } else if (task.engine == Engine::unified) {
    bytes = unified_bytes(active);
  }
  stats.bytes[static_cast<std::size_t>(task.engine)] += bytes;
  if (task.engine == Engine::zerocopy && plan_.compressed) {
    // As the GPU reads compressed lists in place and decodes them: decoded here into staging.
    advance_batches(active, ListSource::compressed, stats);
    return;
  }
  const auto start = Clock::now();
  stats.edges_processed += advance_in_place(active);
  stats.compute_seconds += since(start);
}

// Monotone programs: the values reduce with the program's own direction (min unless it says),
// and an owned vertex whose value changed anywhere joins the next frontier. Accumulative ones:
// every rank's change of the deltas is summed onto the agreed deltas, and an owned vertex whose
// delta now reaches the activation threshold (relax() from zero says so) joins it.
template <class P>
void CpuExecutor<P>::exchange(Communicator& communicator, IterationStats& stats) {
  const vid_t n = g_.num_vertices();
  const auto each_word = [&](auto&& per_vertex) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, next_.num_words(), 256),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t w = r.begin(); w < r.end(); ++w) {
                          std::uint64_t bits = 0;
                          for (std::size_t b = 0; b < 64 && (w << 6) + b < n; ++b) {
                            if (per_vertex(static_cast<vid_t>((w << 6) + b)))
                              bits |= std::uint64_t{1} << b;
                          }
                          next_.words()[w] |= bits & owned_->words()[w];
                        }
                      });
  };
  if constexpr (kAccumulative) {
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { change_[v] = deltas_[v] - agreed_[v]; });
    communicator.all_reduce(change_.span(), Reduction::sum);
    each_word([&](vid_t v) {
      deltas_[v] = agreed_[v] + change_[v];
      agreed_[v] = deltas_[v];
      Value from_zero{};
      return activated_by(program_, deltas_[v], &from_zero, v);
    });
  } else {
    communicator.all_reduce(values_.span(), reduction_of<P>());
    each_word([&](vid_t v) {
      const bool changed = values_[v] != agreed_[v];
      agreed_[v] = values_[v];
      return changed;
    });
  }
  stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
}

// Accumulative programs keep each vertex's value on its owner alone: collect them.
template <class P>
void CpuExecutor<P>::finish(Communicator& communicator) {
  if constexpr (kAccumulative) {
    tbb::parallel_for(vid_t{0}, g_.num_vertices(), [&](vid_t v) {
      if (!owned_->test(v)) values_[v] = Value{};
    });
    communicator.all_reduce(values_.span(), Reduction::sum);
  }
}

}  // namespace ooc::detail
