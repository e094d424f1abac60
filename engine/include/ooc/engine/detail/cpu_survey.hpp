#pragma once
// The CPU executor's survey (push): each partition's active vertices, edges, lines, bytes and
// reads from the file, and the urgency of its frontier, from which the driver chooses each
// partition's transfer engine and the priority window. Member definitions of CpuExecutor;
// cpu_executor.hpp includes this at its end.
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <utility>

#include "ooc/engine/detail/host_tier.hpp"

namespace ooc::detail {

// The partition's vertices set in `bits`: the admitted frontier (push), or the gathering vertices
// (`gathering`: all of them count, at no priority).
template <class P>
PartitionSurvey CpuExecutor<P>::survey_partition(const ListSet& l, std::size_t partition,
                                                 const Bitmap& bits, bool gathering) const {
  const Partition& p = l.parts[partition];
  const Graph& g = *l.g;
  PartitionSurvey s;
  s.activity.edges = p.num_edges();
  if (l.compressed) {
    s.activity.filter_bytes =
        compressed_filter_bytes(g, p.first_vertex, p.last_vertex, p.num_edges(), edge_bytes_);
  }
  double most_urgent = std::numeric_limits<double>::infinity();
  std::uint64_t word = ~std::uint64_t{0}, held = 0;  // the GPU's warp per 64-vertex word
  std::uint64_t list_bytes = 0;                      // of the active compressed lists
  // A partition in the graph's file (the host tier): the reads of its active lists, counted as
  // HostTier::fetch_lists makes them, by where each list lies among those the run reads.
  const bool in_file = tier_ != nullptr && &l == &push_lists_ &&
                       !tier_->holds(static_cast<std::uint32_t>(partition));
  const auto list_at = [&](vid_t v) {
    return l.compressed ? g.compressed.offsets[v] : std::uint64_t{g.offsets[v]} * sizeof(vid_t);
  };
  StorageListReads reads;
  bits.for_each_set(p.first_vertex, p.last_vertex, [&](std::size_t i) {
    const auto v = static_cast<vid_t>(i);
    if (i / 64 != word) {
      word = i / 64;
      held = ~std::uint64_t{0};
    }
    if (!gathering && !admitted(v)) return;
    const eid_t degree = g.degree(v);
    ++s.activity.active_vertices;
    s.activity.active_edges += degree;
    s.activity.requests += read_lines(l, v, degree, held);
    if (l.compressed) list_bytes += g.compressed.offsets[v + 1] - g.compressed.offsets[v];
    if (in_file) reads.add(list_at(v), list_at(v + 1));
    if (gathering) return;
    most_urgent = std::min(most_urgent, urgency(v));
    if constexpr (P::kind == ProgramKind::accumulative)
      s.priority += static_cast<double>(deltas_[v]);
  });
  // Larger priority runs first: the largest pending delta, or the most urgent value.
  if (P::kind == ProgramKind::monotone && !gathering) s.priority = -most_urgent;
  if (l.compressed && s.activity.active_vertices > 0) {
    s.activity.compacted_bytes =
        compressed_compaction_bytes(list_bytes, s.activity.active_edges, s.activity.active_vertices,
                                    edge_bytes_, g.compressed.weight_bits());
  }
  if (in_file) {
    price_in_file(s.activity, edge_bytes_,
                  l.compressed ? kCompressedIndexBytes : kCompactionIndexBytes, reads.reads);
  }
  if (s.activity.active_vertices > 0) {
    s.engine =
        engine_for(options_.transfer, plan_.in_memory, s.activity, edge_bytes_, options_.cost);
  }
  return s;
}

// The range of urgency over the active vertices (every one at or under the floor: the window is
// being chosen).
template <class P>
std::optional<UrgencyRange> CpuExecutor<P>::urgency_range() {
  using Range = std::pair<double, double>;
  const double floor = urgency_floor(program_);
  const Range range = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, parts_.size()),
      Range{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()},
      [&](const tbb::blocked_range<std::size_t>& r, Range acc) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          current_.for_each_set(parts_[i].first_vertex, parts_[i].last_vertex, [&](std::size_t v) {
            const double k = urgency(static_cast<vid_t>(v));
            if (k <= floor) acc = {std::min(acc.first, k), std::max(acc.second, k)};
          });
        }
        return acc;
      },
      [](Range a, Range b) {
        return Range{std::min(a.first, b.first), std::max(a.second, b.second)};
      });
  if (range.first > range.second) return std::nullopt;  // nothing active
  return UrgencyRange{range.first, range.second};
}

// Active edges (and pending delta) per urgency bucket.
template <class P>
void CpuExecutor<P>::urgency_loads(const UrgencyRange& range, std::span<BucketLoad> loads) {
  using Histogram = std::array<BucketLoad, kPriorityBuckets>;
  const double floor = urgency_floor(program_);
  tbb::combinable<Histogram> local([] { return Histogram{}; });
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t i) {
    Histogram& h = local.local();
    current_.for_each_set(parts_[i].first_vertex, parts_[i].last_vertex, [&](std::size_t i_v) {
      const auto v = static_cast<vid_t>(i_v);
      const double k = urgency(v);
      if (k > floor) return;
      BucketLoad& load = h[static_cast<std::size_t>(range.bucket(k))];
      load.edges += g_.degree(v);
      if constexpr (kAccumulative) load.mass += static_cast<double>(deltas_[v]);
    });
  });
  local.combine_each([&](const Histogram& h) {
    for (std::size_t b = 0; b < loads.size(); ++b) {
      loads[b].edges += h[b].edges;
      loads[b].mass += h[b].mass;
    }
  });
}

template <class P>
void CpuExecutor<P>::survey(const PriorityWindow& window, std::span<PartitionSurvey> out) {
  window_ = window;
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t i) {
    out[i] = survey_partition(push_lists_, i, current_, false);
  });
  pulling_ = false;
  sources_taken_ = false;
  surveys_.assign(out.begin(), out.end());
}

}  // namespace ooc::detail
